import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One value per calling thread, made on that thread's first use: what lets a `Sendable` generator
/// hand each thread its own non-`Sendable` state with no lock on the hot path.
///
/// A thread's value is released when the thread exits (pthread thread-specific data) or when this
/// object is, whichever comes first.
final class PerThread<Value: AnyObject>: @unchecked Sendable {
    // @unchecked: each value is only ever touched by the thread it was made on; the registry of
    // values is behind a Mutex.
    private let key: pthread_key_t
    private let slots = Slots()
    private let make: @Sendable () -> Value

    /// `nil` when the process is out of thread-specific keys (PTHREAD_KEYS_MAX, 1024 on glibc, shared
    /// with everything else in the process): shared generators are meant to be few and long-lived.
    init?(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        var key = pthread_key_t()
        guard pthread_key_create(&key, { Slot.threadExited($0) }) == 0 else { return nil }
        self.key = key
    }

    deinit {
        pthread_key_delete(key)
        for slot in slots.removeAll() { slot.release() }
    }

    /// This thread's value.
    @inline(__always)
    var value: Value {
        if let p = pthread_getspecific(key) {
            return unsafeDowncast(Unmanaged<Slot>.fromOpaque(p).takeUnretainedValue().value, to: Value.self)
        }
        return makeValue()
    }

    private func makeValue() -> Value {
        let value = make()
        let slot = Unmanaged.passRetained(Slot(value: value, slots: slots))
        slots.insert(slot)
        pthread_setspecific(key, slot.toOpaque())
        return value
    }
}

/// One thread's value. Retained once on behalf of its thread; whoever removes it from `Slots` (the
/// thread's exit, or the owner's deinit) releases that reference, so it is released exactly once.
private final class Slot {
    let value: AnyObject
    let slots: Slots

    init(value: AnyObject, slots: Slots) {
        self.value = value
        self.slots = slots
    }

    static func threadExited(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let slot = Unmanaged<Slot>.fromOpaque(pointer)
        if slot.takeUnretainedValue().slots.remove(slot) { slot.release() }
    }
}

/// The live slots of one `PerThread`, by address.
private final class Slots: Sendable {
    private let live = Mutex<Set<UInt>>([])

    private static func address(_ slot: Unmanaged<Slot>) -> UInt { UInt(bitPattern: slot.toOpaque()) }

    func insert(_ slot: Unmanaged<Slot>) {
        let a = Self.address(slot)
        _ = live.withLock { $0.insert(a) }
    }

    /// Whether `slot` was still live (and so is now the caller's to release).
    func remove(_ slot: Unmanaged<Slot>) -> Bool {
        let a = Self.address(slot)
        return live.withLock { $0.remove(a) != nil }
    }

    func removeAll() -> [Unmanaged<Slot>] {
        let all = live.withLock { set in
            defer { set.removeAll() }
            return Array(set)
        }
        return all.compactMap { UnsafeRawPointer(bitPattern: $0).map { Unmanaged<Slot>.fromOpaque($0) } }
    }
}
