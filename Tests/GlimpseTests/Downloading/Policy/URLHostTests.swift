@testable import Glimpse
import Testing

/// Every legal spelling of a host read to its address, without I/O.
@Suite("URLHost parsing")
struct URLHostTests {
    static let loopback = HostAddress.v4(0x7f00_0001)

    @Test(arguments: [
        "127.0.0.1", "2130706433", "0x7f000001", "0X7F000001", "0177.0.0.1", "0177.0000.0000.0001", "127.1", "127.0.1",
        "0x7f.1", "0x7f.0.0.1", "0x7f.0.1", "017700000001", "127.0.0.1.", "0x7f.0x0.0x0.0x1", "127.0x0.0.01",
    ])
    func everyIPv4SpellingOfLoopbackIsLoopback(_ text: String) throws {
        #expect(try URLHost(parsing: text) == .address(Self.loopback, zone: nil))
    }

    @Test(arguments: [
        ("::1", "::1"), ("[::1]", "::1"), ("0:0:0:0:0:0:0:1", "::1"), ("::ffff:127.0.0.1", "::ffff:127.0.0.1"),
        ("[::FFFF:7F00:1]", "::ffff:127.0.0.1"), ("fe80::1%eth0", "fe80::1"), ("[fe80::1%25lo]", "fe80::1"),
        ("64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe"), ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"), ("::", "::"),
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"), ("2002:7f00:1::", "2002:7f00:1::"),
    ])
    func ipv6LiteralsParseAndPrintAsRFC5952(_ text: String, _ printed: String) throws {
        guard case .address(let address, _) = try URLHost(parsing: text) else {
            Issue.record("\(text) is not an address")
            return
        }
        #expect(address.description == printed)
    }

    @Test func zonesAreKept() throws {
        #expect(try URLHost(parsing: "fe80::1%25eth0") == .address(.v6(UInt128(0xfe80) << 112 | 1), zone: "eth0"))
    }

    @Test(arguments: ["localhost", "LOCALHOST", "localhost.", "a.localhost", "x.y.LocalHost."])
    func localhostNamesAreLoopbackWithoutDNS(_ text: String) throws {
        let host = try URLHost(parsing: text)
        #expect(host.isLocalhost)
        #expect(AddressPolicy.knownAddresses(of: host) == [.v4(0x7f00_0001), .v6(1)])
    }

    @Test(arguments: ["example.com", "Example.COM.", "1a.example", "images-1.cdn.example", "localhost.example"])
    func namesStayNames(_ text: String) throws {
        guard case .name(let name) = try URLHost(parsing: text) else {
            Issue.record("\(text) read as an address")
            return
        }
        #expect(name == text.lowercased().trimmingCharacters(in: ["."]))
        #expect(!(try URLHost(parsing: text)).isLocalhost || text.hasPrefix("localhost."))
    }

    @Test(arguments: [
        "", ".", "1.2.3.4.5", "256.0.0.1", "1.2.3.256", "4294967296", "0x100000000", "08.0.0.1", "1.2.3.09", "1.16777216",
        "example.1", "::1::", "1:2:3:4:5:6:7:8:9", "12345::", "::g", "fe80::1%", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3",
        "a..b", "127.0.0.1..",
    ])
    func malformedHostsAreRefused(_ text: String) {
        #expect(throws: URLHost.ParseError.self) { try URLHost(parsing: text) }
    }

    @Test func largestShortFormsStayInRange() throws {
        #expect(try URLHost(parsing: "255.16777215") == .address(.v4(0xffff_ffff), zone: nil))
        #expect(try URLHost(parsing: "4294967295") == .address(.v4(0xffff_ffff), zone: nil))
        #expect(try URLHost(parsing: "0x") == .address(.v4(0), zone: nil))
    }
}
