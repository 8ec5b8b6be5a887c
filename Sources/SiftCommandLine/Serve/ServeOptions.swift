/// The options of `sift serve`, as given.
struct ServeOptions {
  var nats: String?
  var rulesBucket: String?
  var stream: String?
  var consumer: String?
  var outSubject = "sift.routed"
  var each = false
  var batch = 256
  var maxDeliver = 5
  var shard = RuleShard.all

  /// The longest message decided, as `sift route`'s default `--max-line-bytes`: a longer
  /// one is an error record, as the line would be.
  static let maxMessageBytes = LineReader.defaultMaxLineBytes

  /// Reads the arguments; nil for `--help`.
  static func parse(_ arguments: [CommandLineArgument]) throws(UsageError) -> ServeOptions? {
    var options = ServeOptions()
    var rest = arguments[...]
    func value(_ name: String) throws(UsageError) -> String {
      guard let v = rest.popFirst()?.text else { throw UsageError(message: "\(name) needs a value") }
      return v
    }
    func count(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
      let text = try value(name)
      guard let n = Int(text), range.contains(n) else {
        throw UsageError(
          message: "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
      }
      return n
    }
    while let raw = rest.popFirst() {
      switch raw.text {
      case "--help", "-h": return nil
      case "--nats": options.nats = try value("--nats")
      case "--rules-bucket": options.rulesBucket = try name(value("--rules-bucket"), "--rules-bucket")
      case "--stream": options.stream = try name(value("--stream"), "--stream")
      case "--consumer": options.consumer = try name(value("--consumer"), "--consumer")
      case "--out-subject": options.outSubject = try subject(value("--out-subject"))
      case "--each": options.each = true
      case "--batch": options.batch = try count("--batch", 1...10_000)
      case "--max-deliver": options.maxDeliver = try count("--max-deliver", 1...1_000_000)
      case "--shard":
        let text = try value("--shard")
        guard let shard = RuleShard(parsing: text) else {
          throw UsageError(message: "--shard needs I/N with 0 <= I < N, not '\(text)'")
        }
        options.shard = shard
      default: throw UsageError(message: "unknown option \(raw.text) for sift serve")
      }
    }
    for (flag, given) in [
      ("--nats", options.nats), ("--rules-bucket", options.rulesBucket), ("--stream", options.stream),
      ("--consumer", options.consumer),
    ] where given == nil {
      throw UsageError(message: "sift serve needs \(flag)")
    }
    return options
  }

  /// A stream, consumer or bucket name: JetStream refuses `.`, `*`, `>`, spaces and
  /// control characters in them.
  private static func name(_ text: String, _ flag: String) throws(UsageError) -> String {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && !".*>/\\".utf8.contains($0) }) else {
      throw UsageError(message: "\(flag) '\(text)' is not a JetStream name (no '.', '*', '>', '/', '\\' or spaces)")
    }
    return text
  }

  /// An output prefix: a subject of one or more tokens, without wildcards.
  private static func subject(_ text: String) throws(UsageError) -> String {
    let tokens = text.split(separator: ".", omittingEmptySubsequences: false)
    guard
      tokens.allSatisfy({ token in
        !token.isEmpty && token != "*" && token != ">" && token.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
      })
    else {
      throw UsageError(message: "--out-subject '\(text)' is not a subject without wildcards (tokens joined by '.')")
    }
    return text
  }
}
