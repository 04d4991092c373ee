import Foundation
import GlimpseCache
@testable import Glimpse
import Testing

@Suite("HTTP dates, Cache-Control, Content-Range")
struct HTTPHeaderParsingTests {
    /// RFC 9110 §5.6.7's example instant in its three forms.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func allThreeDateFormsNameTheSameInstant(_ text: String) {
        #expect(HTTPDate(parsing: text)?.secondsSince1970 == 784_111_777)
    }

    @Test func imfFixdateRoundTripsAcrossLeapDaysAndCenturies() {
        for text in ["Tue, 29 Feb 2000 23:59:59 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 2083 12:00:00 GMT",
                     "Tue, 24 Nov 2026 03:30:00 GMT"] {
            let date = HTTPDate(parsing: text)
            #expect(date?.imfFixdate == text)
        }
        #expect(HTTPDate(Date(timeIntervalSince1970: 0)).imfFixdate == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test(arguments: ["", "0", "yesterday", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Foo 1994 08:49:37 GMT",
                      "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
                      "Sun, 06 Nov 1994 8:49:37 GMT"])
    func malformedDatesAreRejected(_ text: String) {
        #expect(HTTPDate(parsing: text) == nil)
    }

    @Test func cacheControlDirectives() {
        let control = CacheControl(parsing: "Public, MAX-AGE=\"600\", must-revalidate, x-ext=\"a,b\", no-cache")
        #expect(control.maxAge == 600)
        #expect(control.mustRevalidate)
        #expect(control.noCache)
        #expect(!control.noStore)
        #expect(CacheControl(parsing: "no-store").noStore)
        #expect(CacheControl(parsing: "max-age=60, max-age=5").maxAge == 60, "the first of a repeated directive counts")
        #expect(CacheControl(parsing: "max-age=-1").maxAge == 0, "an invalid max-age is stale")
        #expect(CacheControl(parsing: "max-age=99999999999999").maxAge == 2_147_483_648)
        #expect(CacheControl(parsing: "").maxAge == nil)
    }

    @Test func contentRange() {
        #expect(ContentRange(parsing: "bytes 100-199/1000") == ContentRange(first: 100, last: 199, completeLength: 1000))
        #expect(ContentRange(parsing: "bytes 0-0/*")?.completeLength == nil)
        for bad in ["bytes 200-100/1000", "bytes 100-1000/1000", "items 0-1/2", "bytes -5/10", "bytes 1-2", "bytes a-b/c",
                    "bytes +1-2/3"] {
            #expect(ContentRange(parsing: bad) == nil, "\(bad)")
        }
    }
}

extension ContentRange {
    init(first: Int64, last: Int64, completeLength: Int64?) {
        self = ContentRange(parsing: "bytes \(first)-\(last)/\(completeLength.map(String.init) ?? "*")")!
    }
}

@Suite("HTTP freshness (RFC 9111 §4.2) and storing")
struct HTTPFreshnessTests {
    let sent = Date(timeIntervalSince1970: 1_000_000)
    var received: Date { sent.addingTimeInterval(2) }

    @Test func maxAgeCountsTheAgeAlreadySpentUpstream() {
        let freshness = HTTPFreshness(headers: ["cache-control": "max-age=100", "age": "30",
                                                "date": HTTPDate(received).imfFixdate],
                                      requestTime: sent, responseTime: received)
        #expect(freshness.lifetime == 100)
        #expect(freshness.initialAge == 32, "Age plus the response delay")
        #expect(freshness.isFresh(at: received.addingTimeInterval(67)))
        #expect(!freshness.isFresh(at: received.addingTimeInterval(68)))
        #expect(!freshness.mustRevalidate)
    }

    @Test func expiresIsMeasuredFromTheOriginsDate() {
        let date = received.addingTimeInterval(-10)   // the origin's clock is 10 s behind
        let freshness = HTTPFreshness(headers: ["expires": HTTPDate(date.addingTimeInterval(60)).imfFixdate,
                                                "date": HTTPDate(date).imfFixdate],
                                      requestTime: sent, responseTime: received)
        #expect(freshness.lifetime == 60)
        #expect(freshness.initialAge == 10, "apparent age from Date beats the response delay")
        #expect(HTTPFreshness(headers: ["expires": "0"], requestTime: sent, responseTime: received).lifetime == 0,
                "an invalid Expires is already expired")
    }

    @Test func noCacheAndMustRevalidate() {
        let noCache = HTTPFreshness(headers: ["cache-control": "no-cache, max-age=600"], requestTime: sent, responseTime: received)
        #expect(noCache.lifetime == 0)
        #expect(noCache.mustRevalidate)
        #expect(!noCache.isFresh(at: received))
        #expect(HTTPFreshness(headers: ["cache-control": "max-age=5, must-revalidate"], requestTime: sent,
                              responseTime: received).mustRevalidate)
    }

    @Test func heuristicFreshnessIsATenthOfTheAgeOfTheContentAtMostADay() {
        let date = HTTPDate(received).imfFixdate
        let tenDaysOld = HTTPFreshness(headers: ["date": date, "last-modified": HTTPDate(received.addingTimeInterval(-864_000)).imfFixdate],
                                       requestTime: sent, responseTime: received)
        #expect(tenDaysOld.lifetime == 86_400)
        let anHourOld = HTTPFreshness(headers: ["date": date, "last-modified": HTTPDate(received.addingTimeInterval(-3600)).imfFixdate],
                                      requestTime: sent, responseTime: received)
        #expect(anHourOld.lifetime == 360)
        #expect(HTTPFreshness(headers: [:], requestTime: sent, responseTime: received).lifetime == 0)
    }

    @Test func storingUnderEachPolicy() {
        #expect(HTTPCachePolicy.ignore.allowsStoring(headers: ["cache-control": "no-store", "vary": "Cookie"]))
        #expect(!HTTPCachePolicy.respect.allowsStoring(headers: ["cache-control": "private, no-store"]))
        #expect(HTTPCachePolicy.respect.allowsStoring(headers: ["vary": "Accept, accept-encoding"]))
        #expect(!HTTPCachePolicy.respect.allowsStoring(headers: ["vary": "Accept, Cookie"]))
        #expect(!HTTPCachePolicy.respect.allowsStoring(headers: ["vary": "*"]))
        #expect(HTTPCachePolicy.respect.allowsStoring(headers: ["cache-control": "max-age=0"]))
    }
}
