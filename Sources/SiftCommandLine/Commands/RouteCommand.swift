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
    // Inserted from their syntax, in batches: a rule that shares its shape's code is never
    // compiled on its own, and a million parsed trees are never held at once.
    var entries: [(id: Int, syntax: PredicateSyntax, format: String?)] = []
    var entryLines: [Int] = []
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
      for failure in set.insert(syntaxes: entries, options: CompileOptions()) {
        reject(entryLines[failure.position], "the predicate does not compile: \(failure.error)")
      }
      entries.removeAll(keepingCapacity: true)
      entryLines.removeAll(keepingCapacity: true)
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
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        reject(number, "empty line (a rule is a JSON object)")
        return true
      }
      let value: SiftValue
      let ranges: [String: Range<Int>]
      do throws(JSONError) {
        (value, ranges) = try SiftValue.readWithMemberRanges(json: bytes)
      } catch {
        reject(number, "not valid JSON: \(error.message) (at byte \(error.offset))")
        return true
      }
      guard case .dictionary(let rule) = value else {
        reject(number, "a rule is a JSON object with \"id\" and \"predicate\"")
        return true
      }
      guard rule["id"] != nil, let idRange = ranges["id"] else {
        reject(number, "the rule has no \"id\"")
        return true
      }
      let id = Array(bytes[idRange])
      guard case .string(let format)? = rule["predicate"] else {
        reject(number, "the rule has no string \"predicate\"")
        return true
      }
      var arguments: [SiftValue] = []
      switch rule["args"] {
      case nil, .null?: break
      case .array(let values)?: arguments = values
      default:
        reject(number, "\"args\" must be a JSON array")
        return true
      }
      if let first = seen[id] {
        reject(number, "the id \(String(decoding: id, as: UTF8.self)) is already the id of the rule on line \(first)")
        return true
      }
      do {
        let syntax = try PredicateSyntax(parsing: format, arguments: arguments)
        let check = RouteRuleCheck(syntax)
        if check.neverMatches {
          reject(
            number,
            "the predicate can never match: every evaluation that could make it true fails at \(check.summary); "
              + RouteRuleCheck.why)
          return true
        }
        if !check.references.isEmpty {
          reports.append(
            (
              number,
              "sift route: \(path.display):\(number): warning: \(check.summary), always fails when evaluated "
                + "(\(RouteRuleCheck.why)); the rule may still match where evaluation does not reach it", false
            ))
        }
        seen[id] = number
        entries.append((ids.count, syntax, format))
        entryLines.append(number)
        ids.append(id)
        if entries.count == 10_000 { insertBatch() }
      } catch {
        reject(number, "the predicate does not compile: \(error)")
      }
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
    let matcher = SetJSONMatcher(rules.set)
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
      if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        reject(line.number, "line is empty (not a JSON value)", nil)
        return !out.closed && StopSignal.requested == nil
      }
      let matched: [Int]
      switch matcher.matches(line.bytes, readable: line.readable) {
      case .matched(let ids): matched = ids
      case .invalid(let error):
        reject(line.number, "line is not valid JSON: \(error.message)", error.offset)
        return !out.closed && StopSignal.requested == nil
      }
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
