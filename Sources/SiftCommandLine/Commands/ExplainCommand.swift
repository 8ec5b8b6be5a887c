import Sift

/// `sift explain`: show the bytecode a predicate compiles to.
enum ExplainCommand {
  static let help = """
    usage: sift explain [--args JSON_ARRAY] 'PREDICATE'

    Compiles a predicate and prints its canonical form and a listing of its bytecode:
    one instruction per line with its operands and source range, then the constant,
    name, key path, comparison, needle, string-set, pattern and regex pools.
    Exit 0, or 1 with the diagnostic on stderr.
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    var format: [UInt8]? = nil
    var argsJSON: [UInt8]? = nil
    var rest = arguments[...]
    while let raw = rest.popFirst() {
      let arg = raw.text
      switch arg {
      case "--help", "-h":
        Console.out.writeLine(help)
        return .success
      case "--args":
        guard let value = rest.popFirst() else { throw UsageError(message: "--args needs a JSON array") }
        argsJSON = value.bytes
      default:
        if arg.hasPrefix("--") { throw UsageError(message: "unknown option \(arg) for sift explain") }
        guard format == nil else { throw UsageError(message: "sift explain takes one predicate") }
        format = raw.bytes
      }
    }
    guard let format else { throw UsageError(message: "sift explain needs a predicate") }
    let args = try CLIArguments.parseArray(argsJSON)
    do throws(PredicateSyntaxError) {
      // Parsing the bytes first reports invalid UTF-8 precisely.
      _ = try PredicateSyntax(parsingUTF8: format, arguments: args)
      let predicate = try SiftPredicate(format: String(decoding: format, as: UTF8.self), arguments: args)
      Console.out.writeLine("predicate: \(predicate.predicateFormat)")
      Console.out.writeLine(predicate.bytecodeListing)
      return .success
    } catch {
      Console.error(error.description)
      return .failure
    }
  }
}
