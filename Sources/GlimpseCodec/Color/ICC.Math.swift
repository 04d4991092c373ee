#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ICC {
    /// The C library's `pow`, `log` and `cbrt`, fenced in this file because the standard
    /// library has no transcendental functions; transfer curves and L*a*b* need them.
    enum Math {
        static func pow(_ x: Double, _ y: Double) -> Double {
            #if canImport(Glibc)
            Glibc.pow(x, y)
            #elseif canImport(Musl)
            Musl.pow(x, y)
            #else
            Darwin.pow(x, y)
            #endif
        }

        static func log(_ x: Double) -> Double {
            #if canImport(Glibc)
            Glibc.log(x)
            #elseif canImport(Musl)
            Musl.log(x)
            #else
            Darwin.log(x)
            #endif
        }

        static func cbrt(_ x: Double) -> Double {
            #if canImport(Glibc)
            Glibc.cbrt(x)
            #elseif canImport(Musl)
            Musl.cbrt(x)
            #else
            Darwin.cbrt(x)
            #endif
        }
    }
}
