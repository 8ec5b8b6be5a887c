import CSiftPrefetch
import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift route --rules RULES.jsonl [FILE…]`: for every input line, the ids of every rule
/// whose predicate it satisfies, found through a ``SiftPredicateSet`` index rather than by
/// evaluating every rule.
enum RouteCommand {
  static let help = """
    usage: sift route --rules RULES.jsonl [--each] [--max-line-bytes N] [--] [FILE…]

    Reads rules, one JSON object per line: {"id": ID, "predicate": "…", "args": […]}
    ("args" optional; ID any JSON value, unique), then JSON Lines (standard input when no
    FILE, or for '-'), and for every input line writes the ids of the rules whose predicate
    its value satisfies, in rule order:
      {"line": N, "ids": [ID, …]}            ("file": "NAME" first for a named FILE)
    Each ID is written exactly as the rules file spells it, and two ids are the same only
    when they are spelled with the same bytes ("\\u00e9" and "é", 1E2 and 100 differ).
    A line that is not valid JSON, empty, or over --max-line-bytes is reported on stderr and
    written as
      {"line": N, "error": {"message": "…", "offset": N}}
    and the stream goes on. Everything decided is written before a read that would wait.

      --rules FILE        the rules (required)
      --each              write the input line once per matching rule instead, with the id
                          in front: {"id": ID, "line": LINE}; errors go to stderr only
      --max-line-bytes N  the longest line read, rules and input, in bytes without its
                          ending (default 16777216, 16 MiB); a longer line is an error
                          and is skipped without being held in memory
      --                  end of options: the rest are files, even those that start with '-'

    Every rule is checked before any input is read: a rule that is not a JSON object with a
    string "predicate", whose predicate does not compile, whose id repeats an earlier one,
    or that can never match because every evaluation that could make it true reaches a
    FUNCTION no built-in answers or a $variable nothing binds, is reported with its line
    number, and the command exits 2 without reading input. A rule that reaches those only
    on some paths (a == 1 OR $x == 2) may still match: it is loaded, with a warning.
    Exit 0 when every input line was handled, 1 when some lines (or files) had errors.
    """

  struct Options {
    var rules: FileName?
    var each = false
    var maxLineBytes = LineReader.defaultMaxLineBytes
    var files: [FileName] = []
    var inputs: [FileName] { files.isEmpty ? [.standardInput] : files }
  }

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    guard let options = try parse(arguments) else {
      Console.out.writeLine(help)
      return .success
    }
    guard let path = options.rules else { throw UsageError(message: "sift route needs --rules FILE") }
    guard let rules = loadRules(path, maxLineBytes: options.maxLineBytes) else { return .usage }
    // Read for the rest of the run: on huge pages a check's scattered loads miss the TLB far
    // less often (see `HugePages`).
    HugePages.adviseHeap()
    StopSignal.install()
    var hadError = false
    for input in options.inputs {
      if Console.out.closed || StopSignal.requested != nil { break }
      let fd = input.isStandardInput ? 0 : input.open(O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        Console.error("sift route: cannot read \(input.display): \(String(cString: strerror(errno)))")
        hadError = true
        continue
      }
      let (ok, errors) = route(
        fd: fd, name: input.isStandardInput ? nil : input, rules: rules, each: options.each,
        maxLineBytes: options.maxLineBytes)
      if fd != 0 { close(fd) }
      if errors { hadError = true }
      if !ok && StopSignal.requested == nil {
        Console.error("sift route: error reading \(input.isStandardInput ? "standard input" : input.display)")
        hadError = true
      }
    }
    Console.out.flush()
    if let stopped = StopSignal.requested { return StopSignal.exitCode(stopped) }
    return hadError ? .failure : .success
  }

  static func parse(_ arguments: [CommandLineArgument]) throws(UsageError) -> Options? {
    var options = Options()
    var rest = arguments[...]
    var onlyOperands = false
    while let raw = rest.popFirst() {
      let arg = raw.text
      if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
        options.files.append(FileName(raw))
        continue
      }
      switch arg {
      case "--help", "-h": return nil
      case "--": onlyOperands = true
      case "--each": options.each = true
      case "--max-line-bytes": options.maxLineBytes = try CLIArguments.maxLineBytes(rest.popFirst())
      case "--rules":
        guard let value = rest.popFirst() else { throw UsageError(message: "--rules needs a value") }
        options.rules = FileName(value)
      default: throw UsageError(message: "unknown option \(arg) for sift route")
      }
    }
    return options
  }

  /// The compiled rules: the index over them, and each rule's id as written in the file.
  struct Rules {
    let set: SiftPredicateSet<Int>
    let ids: RuleIDs
  }

  /// Every rule's id as written, back to back in one buffer (one allocation, not one per
  /// rule, and written out without retaining anything).
  struct RuleIDs {
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int] = []

    var count: Int { ends.count }

    mutating func append(_ id: [UInt8]) {
      bytes.append(contentsOf: id)
      ends.append(bytes.count)
    }

    /// Asks for the memory of every id in `ks` before any is written: a line's matches are
    /// scattered over the table, and one cache miss after the other (two per id, its end and
    /// its bytes) was a third of `sift route` with 100,000 rules and 40 matches a line.
    /// In flight together, they cost about two.
    func prefetch(_ ks: [Int]) {
      guard ks.count > 1 else { return }
      ends.withUnsafeBufferPointer { ends in
        for k in ks { sift_prefetch(ends.baseAddress! + max(k - 1, 0)) }
        bytes.withUnsafeBufferPointer { bytes in
          // Ids are JSON text, never empty; an empty table has no address to offset.
          guard let base = bytes.baseAddress else { return }
          for k in ks { sift_prefetch(base + (k == 0 ? 0 : ends[k - 1])) }
        }
      }
    }

    /// Writes id `k` to `out`.
    func write(_ k: Int, to out: OutputBuffer) {
      let start = k == 0 ? 0 : ends[k - 1]
      bytes.withUnsafeBufferPointer { out.write(bytes: UnsafeBufferPointer(rebasing: $0[start..<ends[k]])) }
    }
  }

  /// Reads and compiles every rule; reports each bad one (with its line) and returns nil
  /// when there was any.
  static func loadRules(_ path: FileName, maxLineBytes: Int) -> Rules? {
    let fd = path.open(O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      Console.error("sift route: cannot read --rules \(path.display): \(String(cString: strerror(errno)))")
      return nil
    }
    defer { close(fd) }
    var reader = LineReader(fd: fd, maxLineBytes: maxLineBytes)
    let set = SiftPredicateSet<Int>()
    // Inserted from their syntax, in batches (``RuleBatch``), each failure against its line.
    var batch = RuleBatch<Int, Int>()
    var ids = RuleIDs()
    // Ids by their bytes as written: equal values spelled differently are different ids
    // (the id goes back to the caller as written, and that is what the caller tells apart).
    var seen: [[UInt8]: Int] = [:]
    // Reported in line order at the end: a compile error is found when its batch enters
    // the set, after later lines were read.
    var reports: [(number: Int, text: String, bad: Bool)] = []
    func reject(_ number: Int, _ message: String) {
      reports.append((number, "sift route: \(path.display):\(number): \(message)", true))
    }
    func insertBatch() {
      for failure in batch.insert(into: set) { reject(failure.origin, failure.message) }
    }
    let ok = reader.forEachItem(writingOut: []) { (item: LineReader.Item) -> Bool in
      let bytes: UnsafeBufferPointer<UInt8>
      let number: Int
      switch item {
      case .line(let line):
        bytes = line.bytes
        number = line.number
      case .tooLong(let long):
        reject(long.number, long.message)
        return true
      }
      let rule: RouteRule
      do throws(RouteRuleError) {
        rule = try RouteRule.read(bytes, withID: true, readsVariables: false)
      } catch {
        reject(number, error.message)
        return true
      }
      let id = Array(bytes[rule.idRange!])
      if let first = seen[id] {
        reject(number, "the id \(String(decoding: id, as: UTF8.self)) is already the id of the rule on line \(first)")
        return true
      }
      let prepared: RouteRule.Prepared
      do throws(RouteRuleError) {
        prepared = try rule.prepare(command: "sift route")
      } catch {
        reject(number, error.message)
        return true
      }
      if let warning = prepared.warning {
        reports.append((number, "sift route: \(path.display):\(number): \(warning)", false))
      }
      seen[id] = number
      batch.append(prepared, id: ids.count, origin: number)
      ids.append(id)
      if batch.isFull { insertBatch() }
      return true
    }
    guard ok else {
      for r in reports { Console.error(r.text) }
      Console.error("sift route: error reading --rules \(path.display)")
      return nil
    }
    insertBatch()
    // In line order, and for one line in the order found (the sort is not stable).
    let ordered = reports.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
    for r in ordered { Console.error(r.element.text) }
    let bad = reports.count(where: \.bad)
    guard bad == 0 else {
      Console.error("sift route: \(bad) bad rule\(bad == 1 ? "" : "s") in \(path.display); no input was read")
      return nil
    }
    return Rules(set: set, ids: ids)
  }

  /// Routes one input; returns whether reading succeeded and whether any line had an error.
  static func route(fd: Int32, name: FileName?, rules: Rules, each: Bool, maxLineBytes: Int) -> (
    ok: Bool, errors: Bool
  ) {
    var reader = LineReader(fd: fd, maxLineBytes: maxLineBytes)
    let out = Console.out
    var prefix = "{"
    if let name { prefix += name.jsonMembers }
    prefix += "\"line\": "
    let linePrefix = Array(prefix.utf8)
    var errors = false
    // Each line parsed by simdjson and decided on its DOM, as `sift filter` decides one.
    let decider = RouteDecider(rules.set, noun: "line")
    /// A bad line: on stderr, and as an error record unless `--each`.
    func reject(_ number: Int, _ message: String, _ offset: Int?) {
      errors = true
      let place = name.map { "\($0.display):\(number)" } ?? "line \(number)"
      Console.error("sift route: \(place): \(message)" + (offset.map { " (at byte \($0))" } ?? ""))
      guard !each else { return }
      var record = String(decoding: linePrefix, as: UTF8.self) + "\(number), \"error\": {\"message\": "
      JSONWriter.writeString(message, to: &record)
      if let offset { record += ", \"offset\": \(offset)" }
      record += "}}"
      out.writeLine(record)
    }
    // Everything decided is written out before a read that may wait.
    let ok = reader.forEachItem(writingOut: [out]) { (item: LineReader.Item) -> Bool in
      let line: LineReader.Line
      switch item {
      case .line(let whole): line = whole
      case .tooLong(let long):
        reject(long.number, long.message, nil)
        return !out.closed && StopSignal.requested == nil
      }
      let matched: [Int]
      switch decider.decide(line.bytes, readable: line.readable) {
      case .matched(let ids): matched = ids
      case .error(let message, let offset):
        reject(line.number, message, offset)
        return !out.closed && StopSignal.requested == nil
      }
      rules.ids.prefetch(matched)
      if each {
        for k in matched {
          out.write("{\"id\": " as StaticString)
          rules.ids.write(k, to: out)
          out.write(", \"line\": " as StaticString)
          out.write(bytes: line.bytes)
          out.write("}\n" as StaticString)
          out.lineComplete()
        }
      } else {
        linePrefix.withUnsafeBufferPointer { out.write(bytes: $0) }
        out.write(decimal: line.number)
        out.write(", \"ids\": [" as StaticString)
        for (n, k) in matched.enumerated() {
          if n > 0 { out.write(", " as StaticString) }
          rules.ids.write(k, to: out)
        }
        out.write("]}\n" as StaticString)
        out.lineComplete()
      }
      return !out.closed && StopSignal.requested == nil
    }
    return (ok, errors)
  }
}
