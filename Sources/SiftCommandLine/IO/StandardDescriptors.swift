#if canImport(Glibc)
  import Glibc
#endif

/// Standard input, output and error as the process found them. A descriptor the parent
/// closed (`sift … >&-`) would be handed to the next file opened, so the `--errors` file
/// would receive the matching lines or the diagnostics: each closed one is held by
/// `/dev/null` before anything else is opened.
enum StandardDescriptors {
  /// The standard descriptors that were closed at startup, now held by `/dev/null`
  /// (write-only on 0, so reading standard input still fails as it did, with EBADF).
  static func secure() -> [Int32] {
    var closed: [Int32] = []
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      closed.append(fd)
      let held = open("/dev/null", O_WRONLY)
      if held >= 0 && held != fd {
        // Lower descriptors are open by now, so `open` takes `fd`; dup2 covers the rest.
        _ = dup2(held, fd)
        close(held)
      }
    }
    return closed
  }
}
