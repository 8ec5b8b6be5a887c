#if canImport(Glibc)
  import Glibc

  /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it; returns
  /// what `body` returned. A stack overflow would crash the test process, so a passing test
  /// shows that the work fits in that stack.
  /// Work handed to a thread entry point, which cannot capture generic context.
  private class ThreadWork: @unchecked Sendable {
    func run() {}
  }

  /// Carries the work to the thread and the result back; one thread at a time touches it.
  private final class ThreadBox<T>: ThreadWork, @unchecked Sendable {
    let body: @Sendable () -> T
    var result: T?
    init(_ body: @escaping @Sendable () -> T) { self.body = body }
    override func run() { result = body() }
  }

  func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ThreadBox(body)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    var thread = pthread_t()
    let context = Unmanaged<ThreadWork>.passRetained(box).toOpaque()
    let created = pthread_create(
      &thread, &attributes,
      { raw in
        Unmanaged<ThreadWork>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed: \(created)")
    pthread_join(thread, nil)
    return box.result!
  }
#endif
