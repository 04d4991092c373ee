import Foundation
import GlimpseCodec

/// File input and output shared by the commands.
enum ImageFiles {
    /// The whole file, or a ``CommandFailure`` naming it.
    static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
        } catch {
            throw CommandFailure("\(path): cannot read: \(Self.reason(error))")
        }
    }

    /// Writes `bytes` to `path`, replacing it.
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("\(path): cannot write: \(Self.reason(error))")
        }
    }

    /// Decodes a whole file with the standard registry.
    static func decode(_ path: String, options: DecodingOptions = DecodingOptions()) throws(CommandFailure) -> Image {
        let bytes = try read(path)
        do {
            return try DecoderRegistry.standard.decode(bytes, options: options)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// Encodes `image` for `path`, choosing the format from its extension.
    static func encode(_ image: Image, frame: Int, depth: Int, for path: String) throws(CommandFailure) -> [UInt8] {
        let pixels = image.frames[frame].pixels.converted(to: depth == 16 ? .rgba16 : .rgba8)
        switch (path as NSString).pathExtension.lowercased() {
        case "pam":
            return PAM.encode(pixels)
        case "png":
            do {
                return try PNG.Encoder().encode(pixels, metadata: image.metadata)
            } catch {
                throw CommandFailure("\(path): cannot encode PNG: \(error)")
            }
        case "gif":
            // GIF keeps the whole animation, whatever `frame` says.
            do { return try GIF.Encoder.encode(image) } catch { throw CommandFailure("\(path): cannot encode: \(error)") }
        case let other:
            throw CommandFailure("\(path): cannot write .\(other) files (supported: .pam, .png, .gif)")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
