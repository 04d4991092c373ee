import Glimpse

// The README's "Getting started" code, word for word, in a file whose only import is
// `import Glimpse`: it compiles only while the module brings everything the code uses
// (`URL` included). Compiled, not run: it would use `ImagePipeline.shared`'s cache folder.
enum ReadmeGettingStarted {
    static func run(url: URL, show: (Image) -> Void) async throws {
        let image = try await ImagePipeline.shared.image(for: url)          // memory → disk → network
        print(image.width, image.height)

        // A thumbnail: EXIF orientation applied first, never enlarged; the thumbnail
        // itself is what goes to disk, so after a restart it is one small file read.
        let thumbnail = try await ImagePipeline.shared.image(
            for: ImageRequest(url: url, processors: [.resize(width: 256)], priority: .high))
        print(thumbnail.width, thumbnail.height)

        // Progress and partial images as an AsyncStream; priority can change; cancel detaches this caller.
        let task = ImagePipeline.shared.imageTask(for: ImageRequest(url: url, options: .progressive))
        for await event in task.events {
            switch event {
            case .progress(let received, let expected): print(received, expected ?? -1)
            case .preview(let partial): show(partial)
            case .finished(let result): print(result)
            }
        }
    }

    /// `Glimpse.Image` names the image type: no namespace shadows the module.
    static func qualified(_ image: Glimpse.Image) -> Glimpse.ImageFormat { image.format }
}
