import CSiftJSON
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift bench`: how fast one predicate decides the lines of a file, without the cost of
/// reading or writing (the file is loaded first).
enum BenchCommand {
  static let help = """
    usage: sift bench [options] [--] 'PREDICATE' FILE

    Loads FILE (JSON Lines) into memory, then decides every line with the predicate, as
    `sift filter` does, ROUNDS times; prints the counts and each round's rate, then the
    median, on stdout. Nothing is written per line.

      --args JSON_ARRAY   values for %@, %K and numeric specifiers, in order
      --vars JSON_OBJECT  values for $variables
      --apns              SELF is the APNs payload's aps.filter-criteria
      --rounds N          rounds to time (default 3)
      --                  end of options: the next arguments are the predicate (unless it
                          came before) and FILE, even when they start with '-'

    Exit 0, 1 when the file cannot be read, 2 for a bad predicate or bad usage.
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    var options = FilterCommand.Options()
    var rounds = 3
    var file: FileName?
    var rest = arguments[...]
    var onlyOperands = false
    func operand(_ raw: CommandLineArgument) throws(UsageError) {
      if options.format == nil {
        options.format = raw.bytes
      } else if file == nil {
        file = FileName(raw)
      } else {
        throw UsageError(message: "sift bench takes one predicate and one file")
      }
    }
    while let raw = rest.popFirst() {
      let arg = raw.text
      func value() throws(UsageError) -> CommandLineArgument {
        guard let value = rest.popFirst() else { throw UsageError(message: "\(arg) needs a value") }
        return value
      }
      if onlyOperands {
        try operand(raw)
        continue
      }
      switch arg {
      case "--help", "-h":
        Console.out.writeLine(help)
        return .success
      case "--args": options.argsJSON = try value().bytes
      case "--vars": options.varsJSON = try value().bytes
      case "--apns": options.apns = true
      case "--rounds":
        guard let n = Int(try value().text), n > 0 else {
          throw UsageError(message: "--rounds needs a positive integer")
        }
        rounds = n
      case "--": onlyOperands = true
      default:
        if arg.hasPrefix("--") { throw UsageError(message: "unknown option \(arg) for sift bench") }
        try operand(raw)
      }
    }
    guard options.format != nil else { throw UsageError(message: "sift bench needs a predicate") }
    guard let file else { throw UsageError(message: "sift bench needs a file") }
    guard let evaluator = try FilterCommand.makeEvaluator(options, command: "bench") else { return .usage }
    guard let data = LoadedLines(path: file) else {
      Console.error("sift bench: cannot read \(file.display): \(String(cString: strerror(errno)))")
      return .failure
    }
    defer { data.release() }

    var counts = FilterCounts()
    var rates: [Double] = []
    let clock = ContinuousClock()
    let terminal = isatty(2) != 0
    for round in 1...rounds {
      if terminal {
        Console.err.write("\rround \(round) of \(rounds)… ")
        Console.err.flush()
      }
      var roundCounts = FilterCounts()
      let began = clock.now
      for line in data.lines {
        let bytes = UnsafeBufferPointer(start: data.base + line.start, count: line.count)
        switch evaluator.decide(bytes, readable: data.size + Int(SIFT_JSON_PADDING) - line.start) {
        case .match: roundCounts.matched += 1
        case .noMatch: roundCounts.notMatched += 1
        case .error: roundCounts.errors += 1
        }
      }
      let seconds = (clock.now - began).seconds
      roundCounts.lines = data.lines.count
      roundCounts.bytes = data.size
      counts = roundCounts
      rates.append(seconds > 0 ? Double(data.lines.count) / seconds : 0)
      if terminal {
        Console.err.write("\r\u{1B}[K")
        Console.err.flush()
      }
      Console.out.writeLine("round \(round): " + roundCounts.summary(seconds: seconds))
    }
    let median = rates.sorted()[rates.count / 2]
    Console.out.writeLine(
      "median: \(Format.fixed(median / 1e6, 2)) M lines/s, "
        + "\(Format.fixed(median * Double(data.size) / Double(max(data.lines.count, 1)) / 1e6, 1)) MB/s "
        + "(\(counts.matched) matched, \(counts.notMatched) not matched, \(counts.errors) errors per round)")
    return .success
  }
}

/// A whole file in memory with simdjson's padding after it, and where its lines are.
struct LoadedLines {
  let base: UnsafeMutablePointer<UInt8>
  let size: Int
  var lines: [(start: Int, count: Int)] = []

  init?(path: FileName) {
    let fd = path.open(O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var capacity = 1 << 20
    var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + Int(SIFT_JSON_PADDING))
    var size = 0
    while true {
      if size == capacity {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + Int(SIFT_JSON_PADDING))
        bigger.update(from: buffer, count: size)
        buffer.deallocate()
        buffer = bigger
        capacity *= 2
      }
      let n = read(fd, buffer + size, capacity - size)
      if n < 0 {
        if errno == EINTR { continue }
        buffer.deallocate()
        return nil
      }
      if n == 0 { break }
      size += n
    }
    base = buffer
    self.size = size
    var start = 0
    while start < size {
      let end =
        memchr(buffer + start, 0x0A, size - start).map { $0.assumingMemoryBound(to: UInt8.self) - buffer } ?? size
      var count = end - start
      if count > 0 && buffer[start + count - 1] == UInt8(ascii: "\r") { count -= 1 }
      lines.append((start, count))
      start = end + 1
    }
  }

  func release() { base.deallocate() }
}
