/// SHA-256 as specified in FIPS 180-4 §6.2, used to turn arbitrary cache keys into
/// fixed-length file names that cannot contain path separators.
///
/// Not constant-time and not meant for secrets: the cache only needs a well-distributed,
/// collision-resistant name.
public struct SHA256: Sendable {
    /// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the
    /// first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// FIPS 180-4 §5.3.3: the initial hash value.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var block: [UInt8] = []
    private var messageLength: UInt64 = 0

    public init() {
        block.reserveCapacity(64)
    }

    /// Feeds more message bytes; may be called any number of times.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        guard handled == nil else { return }
        let copy = Array(bytes)
        copy.withUnsafeBytes { update($0) }
    }

    /// Feeds more message bytes from raw memory.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        // Wrapping: FIPS 180-4 defines the length modulo 2^64 bits.
        messageLength &+= UInt64(bytes.count)
        var offset = 0
        if !block.isEmpty {
            let take = min(64 - block.count, bytes.count)
            block.append(contentsOf: bytes[0..<take])
            offset = take
            guard block.count == 64 else { return }
            compressBufferedBlock()
            block.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        block.append(contentsOf: bytes[offset...])
    }

    /// Pads the message (FIPS 180-4 §5.1.1) and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = messageLength &* 8
        block.append(0x80)
        if block.count > 56 {
            block.append(contentsOf: repeatElement(0, count: 64 - block.count))
            compressBufferedBlock()
            block.removeAll(keepingCapacity: true)
        }
        block.append(contentsOf: repeatElement(0, count: 56 - block.count))
        for shift in stride(from: 56, through: 0, by: -8) {
            block.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        compressBufferedBlock()
        block.removeAll(keepingCapacity: true)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The digest of `bytes` in one call.
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hexDigest<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in hash(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func compressBufferedBlock() {
        // A separate reference so that `compress` may mutate `self` while the bytes are read.
        let full = block
        full.withUnsafeBytes { compress($0) }
    }

    /// FIPS 180-4 §6.2.2: the compression function over one 64-byte block.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var (a, b, c, d, e, f, g, h) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            Self.roundConstants.withUnsafeBufferPointer { constants in
                // Safe: callers pass exactly 64 bytes; the schedule holds 64 words and every
                // index below is in 0..<64.
                for t in 0..<16 {
                    schedule[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                }
                for t in 16..<64 {
                    let w15 = schedule[t - 15], w2 = schedule[t - 2]
                    let sigma0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                    let sigma1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                    schedule[t] = sigma1 &+ schedule[t - 7] &+ sigma0 &+ schedule[t - 16]
                }
                for t in 0..<64 {
                    let bigSigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ bigSigma1 &+ choose &+ constants[t] &+ schedule[t]
                    let bigSigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = bigSigma0 &+ majority
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                 state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 &- count))
    }
}
