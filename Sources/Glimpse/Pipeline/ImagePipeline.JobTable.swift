extension ImagePipeline {
    /// The loads in flight, one per variant, each shared by its waiters.
    typealias JobTable = CoalescingTable<JobKey, LoadCallbacks, JobHandle, ImageDownloadPriority>

    /// Loads with equal keys share one job: the variant, the options that change
    /// what a load does, and the request's own header fields.
    struct JobKey: Hashable, Sendable {
        var memoryKey: String
        var behaviour: Int
        var headers: [String: String]
    }

    /// What steers a running load job.
    struct JobHandle: Sendable {
        var task: Task<Void, Never>?
        /// The loader's handle while the job downloads, for priority changes.
        var loading: (any ImageDataLoadingTask)?
    }
}
