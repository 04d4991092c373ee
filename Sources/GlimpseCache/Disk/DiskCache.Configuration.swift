import Foundation

extension DiskCache {
    /// Where the cache lives and which limits it enforces.
    public struct Configuration: Sendable {
        /// The namespace directory holding the entry files (created when missing).
        public var directory: URL
        /// Total bytes of entry files; 256 MiB by default.
        public var sizeLimit: Int
        /// Optional bound on the number of entries.
        public var countLimit: Int?
        /// Entries older than this are misses and get removed; `.zero` = never expire.
        public var maxAge: Duration
        /// When a write takes the cache over a limit, evict down to this fraction of it.
        public var trimRatio: Double
        /// `fsync` each entry before renaming it into place. Off by default: atomic rename
        /// already makes entries all-or-nothing across process crashes; `fsync` adds
        /// durability across power loss at a large cost per write.
        public var durableWrites: Bool
        /// Wall-clock time source for `storedDate` and max age.
        public var clock: CacheClock
        /// Test hook: runs on the scanning thread before the initial directory scan starts.
        var beforeInitialScan: (@Sendable () -> Void)?

        public init(
            directory: URL,
            sizeLimit: Int = 256 << 20,
            countLimit: Int? = nil,
            maxAge: Duration = .seconds(7 * 24 * 3600),
            trimRatio: Double = 0.8,
            durableWrites: Bool = false,
            clock: CacheClock = .wall
        ) {
            self.directory = directory
            self.sizeLimit = sizeLimit
            self.countLimit = countLimit
            self.maxAge = maxAge
            self.trimRatio = trimRatio
            self.durableWrites = durableWrites
            self.clock = clock
        }

        /// A configuration for `namespace` under the default root (see `defaultRoot`).
        public init(namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.init(directory: Self.defaultRoot(environment: environment)
                .appendingPathComponent(Self.sanitized(namespace), isDirectory: true))
        }

        /// ``standardRoot(environment:)``, else a folder in the temporary directory.
        public static func defaultRoot(environment: [String: String]) -> URL {
            standardRoot(environment: environment)
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("glimpse", isDirectory: true)
        }

        /// The one cache-folder rule: `$XDG_CACHE_HOME/glimpse` when set to an absolute
        /// path (XDG Base Directory Specification), else `$HOME/.cache/glimpse` when `HOME`
        /// is absolute, else `nil`.
        public static func standardRoot(environment: [String: String]) -> URL? {
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("glimpse", isDirectory: true)
            }
            if let home = environment["HOME"], home.hasPrefix("/") {
                return URL(fileURLWithPath: home, isDirectory: true)
                    .appendingPathComponent(".cache", isDirectory: true)
                    .appendingPathComponent("glimpse", isDirectory: true)
            }
            return nil
        }

        /// Keeps a namespace a single path component, so it cannot escape the root.
        static func sanitized(_ namespace: String) -> String {
            let allowed = namespace.unicodeScalars.map { scalar -> Character in
                let ok = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                return ok ? Character(scalar) : "_"
            }
            let name = String(allowed)
            return name.isEmpty ? "default" : name
        }
    }

    /// Why a write or setup failed. Reads never throw: a bad entry is a miss.
    public enum Error: Swift.Error, Sendable, Equatable {
        /// The cache directory could not be created or opened.
        case directoryUnavailable(path: String)
        /// The entry alone is larger than the size limit.
        case entryTooLarge(size: Int, limit: Int)
        /// The key's UTF-8 bytes or the encoded metadata exceed the entry format's 1 MiB field limit.
        case keyOrMetadataTooLong(length: Int, limit: Int)
        /// A system call failed (`errno` value).
        case io(operation: String, errno: Int32)
    }
}
