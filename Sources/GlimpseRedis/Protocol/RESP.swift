/// The Redis serialization protocol: RESP2, and RESP3 where the server agrees to `HELLO 3`
/// (https://redis.io/docs/latest/develop/reference/protocol-spec/).
///
/// This layer is value types only — ``RESP/Value``, ``RESP/Command``, ``RESP/Parser`` — with
/// no I/O, so it is tested against recorded replies byte by byte; the connection feeds it
/// whatever the socket read.
public enum RESP {}
