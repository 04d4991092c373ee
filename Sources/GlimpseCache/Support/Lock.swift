#if GLIMPSE_PTHREAD_LOCK
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#else
import Synchronization
#endif

/// The package's one lock: a value reachable only while it is held, with `Mutex`'s shape.
///
/// By default it is `Synchronization.Mutex`. ThreadSanitizer cannot see the ordering `Mutex`
/// gives on Linux with this toolchain (a correct program of four threads appending under one
/// `Mutex` gets reports), so a sanitizer run would bury real races under false ones. Built with
/// `-Xswiftc -DGLIMPSE_PTHREAD_LOCK`, the lock is a `pthread_mutex_t`, whose lock and unlock
/// ThreadSanitizer intercepts; `.ci/run` runs the concurrent suites that way under
/// `--sanitize=thread`. Both builds behave the same: only the sanitizer's view differs.
@usableFromInline
package struct Lock<Value: ~Copyable>: ~Copyable {
    #if GLIMPSE_PTHREAD_LOCK
    @usableFromInline let box: Box
    #else
    @usableFromInline let mutex: Mutex<Value>
    #endif

    @inlinable
    package init(_ value: consuming sending Value) {
        #if GLIMPSE_PTHREAD_LOCK
        box = Box(value)
        #else
        mutex = Mutex(value)
        #endif
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if GLIMPSE_PTHREAD_LOCK
        pthread_mutex_lock(box.mutex)
        defer { pthread_mutex_unlock(box.mutex) }
        return try body(&box.value)
        #else
        return try mutex.withLock(body)
        #endif
    }

    #if GLIMPSE_PTHREAD_LOCK
    /// The mutex and the value it guards, on the heap so their addresses never change.
    ///
    /// `@unchecked Sendable` is safe: `value` is read and written only by `withLock`, between
    /// `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`; `mutex` itself is allocated
    /// once and freed in `deinit`, when no thread can hold a reference.
    @usableFromInline
    final class Box: @unchecked Sendable {
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
        @usableFromInline var value: Value

        @usableFromInline
        init(_ value: consuming Value) {
            mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            self.value = value
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    }
    #endif
}

// `@unchecked Sendable` is safe for the same reason as `Mutex`'s own conformance: the value is
// only reachable inside `withLock`, one thread at a time, and enters and leaves as `sending`.
extension Lock: @unchecked Sendable where Value: ~Copyable {}
