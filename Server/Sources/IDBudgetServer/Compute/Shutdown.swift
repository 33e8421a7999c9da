import Foundation
import Synchronization

/// The server's stop, as uploads see it: once SIGTERM (or SIGINT) arrives, an upload still coming is
/// refused (503) at its next chunk instead of holding the graceful shutdown open, and whatever still
/// holds it after ``grace`` (an upload that sends nothing, a slow response) is cut off: the process
/// exits 0 then. So SIGTERM ends the server within the grace whatever clients do.
public enum Shutdown {
    private static let stopping = Atomic<Bool>(false)

    /// Seconds from SIGTERM to the exit, at most.
    public static let grace: Duration = .seconds(10)

    public static var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Marks the server as stopping and starts the watch that ends the process after ``grace``.
    public static func begin(onExpiry: @escaping @Sendable () -> Void = { exit(0) }) {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        let seconds = Double(grace.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { onExpiry() }
    }
}
