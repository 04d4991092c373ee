import Foundation

/// What observers of an ``ImageDownloader`` see, one event per HTTP transfer
/// (not per caller: coalesced callers share a transfer).
public enum ImageDownloadEvent: Sendable, Hashable {
    /// A transfer was handed to URLSession.
    case started(URL)
    /// The response head arrived, with its status.
    case receivedResponse(URL, statusCode: Int)
    /// An attempt failed with `error` and the transfer will try again after
    /// `delay`; `attempt` is the number of the attempt to come (2 for the first retry).
    case retrying(URL, attempt: Int, delay: Duration, error: ImageDownloadError)
    /// A redirect (`statusCode`, RFC 9110 §15.4) to `target` passed the checks
    /// and is followed; `hop` counts from 1 within the attempt.
    case redirected(URL, to: URL, statusCode: Int, hop: Int)
    /// A transfer ended, however it ended (`nil` error for success).
    case stopped(URL, error: ImageDownloadError?)
    /// A transfer's data was delivered successfully.
    case finished(URL)
}

extension Notification.Name {
    /// Posted when a transfer starts (SDWebImage's `SDWebImageDownloadStartNotification`).
    /// The notification's object is the ``ImageDownloader``; `userInfo["url"]` the URL.
    public static let glimpseDownloadStart = Notification.Name("GlimpseDownloadStartNotification")
    /// Posted when a response head arrives (`SDWebImageDownloadReceiveResponseNotification`).
    public static let glimpseDownloadReceiveResponse = Notification.Name("GlimpseDownloadReceiveResponseNotification")
    /// Posted when a failed attempt will be tried again.
    public static let glimpseDownloadRetry = Notification.Name("GlimpseDownloadRetryNotification")
    /// Posted when a checked redirect is followed.
    public static let glimpseDownloadRedirect = Notification.Name("GlimpseDownloadRedirectNotification")
    /// Posted when a transfer ends, however it ended (`SDWebImageDownloadStopNotification`).
    public static let glimpseDownloadStop = Notification.Name("GlimpseDownloadStopNotification")
    /// Posted when a transfer succeeds (`SDWebImageDownloadFinishNotification`).
    public static let glimpseDownloadFinish = Notification.Name("GlimpseDownloadFinishNotification")
}
