import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse encode IN -o OUT.jpg|png|gif|webp`: re-encodes an image.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode an image as JPEG, PNG, GIF or WebP (format from the output's extension).",
        discussion: """
        JPEG output takes the first frame; its bytes equal libjpeg-turbo's (cjpeg) for the same pixels \
        and settings. Transparent pixels are flattened over white unless --ignore-alpha is given. \
        WebP output is lossy (VP8 at --quality, alpha kept exactly unless --alpha-quality is below 100) \
        unless --lossless is given; an animation keeps every frame and its timing, each frame lossy or \
        lossless alike, with key frames as --kmin/--kmax say. --color srgb or --color PROFILE converts \
        the pixels through the image's own colour description first, as LittleCMS does.
        """
    )

    @Argument(help: "The image to encode (any format Glimpse decodes).")
    var file: String

    @Option(name: .shortAndLong, help: "Output file: .jpg/.jpeg, .png, .gif or .webp.")
    var output: String

    @OptionGroup var jpeg: JPEGEncodingArguments

    @OptionGroup var webp: WebPEncodingArguments

    @Option(help: "Metadata to keep: none, icc or all.")
    var metadata: MetadataArgument = .icc

    @Option(help: "Colours: written as decoded with the profile they carry (preserve), converted to sRGB with no profile written (srgb), or converted to the RGB or grey ICC profile at this path, which is embedded (with --metadata icc or all).")
    var color: ColorArgument = .preserve

    func run() throws {
        let format: ImageFormat
        switch (output as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": format = .jpeg
        case "png": format = .png
        case "gif": format = .gif
        case "webp": format = .webp
        case let other: throw CommandFailure("\(output): cannot write .\(other) files (supported: .jpg, .png, .gif, .webp)")
        }
        var options = DecodingOptions()
        if format == .jpeg { options.firstFrameOnly = true }
        let image = try ImageFiles.decode(file, options: options)
        var encoding = EncodingOptions(quality: jpeg.quality, metadata: metadata.policy, colorPolicy: try color.policy())
        if format == .jpeg {
            encoding.jpeg = jpeg.options(for: image.pixels, metadata: JPEG.Encoder.options(from: encoding).metadata)
        }
        if format == .webp { encoding.webp = webp.options(quality: jpeg.quality, metadata: WebP.Encoder.options(from: encoding).metadata) }
        if format == .png, image.isAnimated {
            // A PNG output of an animation keeps every frame (APNG).
            try write(image, as: .apng, options: encoding)
        } else {
            try write(image, as: format, options: encoding)
        }
    }

    private func write(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws {
        let bytes: [UInt8]
        do {
            bytes = try EncoderRegistry.standard.encode(image, as: format, options: options)
        } catch {
            throw CommandFailure("\(output): cannot encode: \(error)")
        }
        try ImageFiles.write(bytes, to: output)
    }
}
