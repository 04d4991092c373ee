@testable import Glimpse
import Testing

/// The policy as a pure function of host, port and addresses: the private
/// and public ranges are tested here, never by connecting to them.
@Suite("AddressPolicy")
struct AddressPolicyTests {
    typealias Use = AddressPolicy.SpecialUse

    private func address(_ text: String) throws -> HostAddress {
        try #require(HostAddress(text), "\(text) is no address")
    }

    private func refusal(_ policy: AddressPolicy, _ host: String, port: Int = 80,
                         resolved: [String] = []) throws -> AddressPolicy.Refusal? {
        let addresses = try resolved.map(address)
        return policy.refusal(host: try URLHost(parsing: host), port: port, addresses: addresses)
    }

    @Test(arguments: [
        ("0.0.0.0", Use.unspecified), ("0.1.2.3", .unspecified), ("10.0.0.1", .privateUse), ("10.255.255.255", .privateUse),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.254", .sharedAddressSpace), ("127.0.0.1", .loopback),
        ("127.255.0.9", .loopback), ("169.254.169.254", .linkLocal), ("172.16.0.1", .privateUse),
        ("172.31.255.255", .privateUse), ("192.0.0.8", .reserved), ("192.0.2.7", .documentation),
        ("192.88.99.1", .reserved), ("192.168.1.1", .privateUse), ("198.18.0.1", .benchmarking),
        ("198.19.255.255", .benchmarking), ("198.51.100.3", .documentation), ("203.0.113.9", .documentation),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("240.0.0.1", .reserved),
        ("255.255.255.255", .reserved),
        ("::", .unspecified), ("::1", .loopback), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("fc00::1", .privateUse), ("fd12:3456::1", .privateUse), ("fd00:ec2::254", .cloudMetadata),
        ("ff02::1", .multicast), ("fec0::1", .reserved), ("2001:db8::1", .documentation), ("3fff::1", .documentation),
        ("2001:2::1", .benchmarking), ("2001::1", .reserved), ("100::1", .reserved), ("4000::1", .reserved),
        // The IPv6 forms that carry an IPv4 address carry its use.
        ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal), ("::ffff:10.1.2.3", .privateUse),
        ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateUse), ("2002:7f00:1::", .loopback),
        ("2002:a9fe:a9fe::1", .linkLocal), ("2002:c0a8:101::", .privateUse), ("64:ff9b::127.0.0.1", .loopback),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::192.168.0.1", .privateUse), ("64:ff9b:1::10.0.0.1", .privateUse),
        ("::ffff:100.64.0.1", .sharedAddressSpace), ("::ffff:224.0.0.1", .multicast),
    ])
    func everySpecialRangeIsDeniedUnderPublic(_ text: String, _ use: Use) throws {
        let candidate = try address(text)
        #expect(AddressPolicy.specialUse(of: candidate) == use)
        #expect(try refusal(.public, text) == .deniedAddress(candidate, use))
    }

    @Test(arguments: [
        "1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0",
        "192.0.1.1", "192.169.0.1", "198.17.255.255", "198.20.0.0", "223.255.255.255", "2606:4700::1111",
        "2a00:1450::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1",
    ])
    func publicAddressesPass(_ text: String) throws {
        #expect(AddressPolicy.specialUse(of: try address(text)) == nil)
        #expect(try refusal(.public, text) == nil)
    }

    @Test func anyDeniesOnlyLinkLocalAndMetadata() throws {
        #expect(try refusal(.any, "127.0.0.1") == nil)
        #expect(try refusal(.any, "10.0.0.1") == nil)
        #expect(try refusal(.any, "169.254.169.254") == .deniedAddress(try address("169.254.169.254"), .linkLocal))
        #expect(try refusal(.any, "[fe80::1%25eth0]") == .deniedAddress(try address("fe80::1"), .linkLocal))
        #expect(try refusal(.any, "::ffff:169.254.169.254") != nil)
        #expect(try refusal(.any, "fd00:ec2::254") != nil)
        #expect(try refusal(.any, "metadata.internal", resolved: ["169.254.169.254"]) != nil)
    }

    @Test func linkLocalUnderAnyPassesWhenAllowedByName() throws {
        let policy = AddressPolicy(.any, allowing: [.host("metadata.internal")])
        #expect(try refusal(policy, "metadata.internal", resolved: ["169.254.169.254"]) == nil)
        #expect(!policy.needsAddresses(of: try URLHost(parsing: "metadata.internal"), port: 80))
    }

    @Test func everyResolvedAddressMustPass() throws {
        let refused = try refusal(.public, "mixed.example", resolved: ["8.8.8.8", "10.0.0.1"])
        #expect(refused == .deniedAddress(try address("10.0.0.1"), .privateUse))
        #expect(try refusal(.public, "fine.example", resolved: ["8.8.8.8", "2606:4700::1111"]) == nil)
        #expect(try refusal(.public, "nothing.example", resolved: []) == .deniedHost("nothing.example"))
    }

    @Test func localhostIsLoopbackUnderEveryPolicyButAny() throws {
        #expect(try refusal(.public, "localhost") != nil)
        #expect(try refusal(.public, "img.localhost.") != nil)
        #expect(try refusal(.any, "localhost") == nil)
        #expect(!AddressPolicy.public.needsAddresses(of: try URLHost(parsing: "localhost"), port: 80))
    }

    @Test func hostRulesWithPorts() throws {
        let policy = AddressPolicy(.public, allowing: [.host("127.0.0.1", port: 8080), .host("*.corp.example")])
        #expect(try refusal(policy, "127.0.0.1", port: 8080) == nil)
        #expect(try refusal(policy, "2130706433", port: 8080) == nil, "the literal matches however it is spelled")
        #expect(try refusal(policy, "::ffff:127.0.0.1", port: 8080) == nil)
        #expect(try refusal(policy, "127.0.0.1", port: 8081) != nil)
        #expect(try refusal(policy, "127.0.0.2", port: 8080) != nil)
        #expect(try refusal(policy, "a.corp.example", resolved: ["10.0.0.1"]) == nil)
        #expect(try refusal(policy, "corp.example", resolved: ["10.0.0.1"]) != nil)
        #expect(try refusal(policy, "name.example", port: 8080, resolved: ["127.0.0.1"]) == nil,
                "an allowed address is allowed behind any name")
    }

    @Test func denyRulesWinOverEverything() throws {
        let policy = AddressPolicy(.any, allowing: [.host("cdn.example")],
                                   denying: [.host("cdn.example", port: 8080), .range(try #require(.init(parsing: "8.8.0.0/16")))])
        #expect(try refusal(policy, "cdn.example", port: 8080) == .deniedHost("cdn.example"))
        #expect(try refusal(policy, "cdn.example", port: 80, resolved: ["1.1.1.1"]) == nil)
        #expect(try refusal(policy, "8.8.4.4") == .deniedAddress(try address("8.8.4.4"), nil))
        #expect(try refusal(policy, "::ffff:8.8.4.4") != nil)
        #expect(try refusal(policy, "other.example", resolved: ["1.1.1.1", "8.8.8.8"]) != nil)
    }

    @Test func noneAllowsOnlyTheAllowList() throws {
        let policy = AddressPolicy(.none, allowing: [.range(try #require(.init(parsing: "2606:4700::/32")))])
        #expect(try refusal(policy, "2606:4700::1111") == nil)
        #expect(try refusal(policy, "1.1.1.1") == .deniedAddress(try address("1.1.1.1"), nil))
    }

    @Test(arguments: [
        ("example.com", AddressPolicy.Rule.host("example.com")), ("example.com:8443", .host("example.com", port: 8443)),
        ("127.0.0.1:80", .host("127.0.0.1", port: 80)), ("[::1]:8080", .host("[::1]", port: 8080)),
        ("::1", .host("::1")), ("*.example.com", .host("*.example.com")),
    ])
    func rulesParse(_ text: String, _ rule: AddressPolicy.Rule) {
        #expect(AddressPolicy.Rule(parsing: text) == rule)
    }

    @Test(arguments: ["10.0.0.0/8", "fc00::/7", "169.254.0.0/16", "64:ff9b::/96"])
    func rangesParse(_ text: String) throws {
        guard case .range(let range)? = AddressPolicy.Rule(parsing: text) else {
            Issue.record("\(text) is no range")
            return
        }
        #expect(range.description == text)
    }

    @Test(arguments: ["", "example.com:", "example.com:0", "example.com:70000", "10.0.0.0/33", "::/129", "1.2.3.4.5",
                      "[::1]x", "10.0.0.0/x"])
    func malformedRulesAreRefused(_ text: String) {
        #expect(AddressPolicy.Rule(parsing: text) == nil)
    }

    @Test func rangesClearHostBitsAndContainTheirAddresses() throws {
        let range = try #require(AddressPolicy.Range(parsing: "10.1.2.3/8"))
        #expect(range.description == "10.0.0.0/8")
        #expect(range.contains(try address("10.200.0.1")))
        #expect(!range.contains(try address("11.0.0.1")))
        #expect(!range.contains(try address("::ffff:10.0.0.1")), "families never mix inside a range")
        #expect(try #require(AddressPolicy.Range(parsing: "0.0.0.0/0")).contains(try address("8.8.8.8")))
    }
}
