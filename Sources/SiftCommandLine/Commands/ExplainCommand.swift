import Sift

/// `sift explain`: show the bytecode a predicate compiles to.
enum ExplainCommand {
  static let help = """
    usage: sift explain [--args JSON_ARRAY] [--] 'PREDICATE'

    Compiles a predicate and prints its canonical form and a listing of its bytecode:
    one instruction per line with its operands and source range, then the constant,
    name, key path, comparison, needle, string-set, pattern and regex pools.
    Exit 0, or 1 with the diagnostic on stderr.

      --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order
      --                 end of options: the next argument is the predicate, even when it
                         starts with '-'
    """

  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    let parsed = try SimpleArguments(arguments, command: "explain", tooMany: "sift explain takes one predicate")
    if parsed.wantsHelp {
      Console.out.writeLine(help)
      return .success
    }
    let format = parsed.positional?.bytes
    let argsJSON = parsed.argsJSON
    guard let format else { throw UsageError(message: "sift explain needs a predicate") }
    let args = try CLIArguments.parseArray(argsJSON)
    do throws(PredicateSyntaxError) {
      // Parsing the bytes reports invalid UTF-8 precisely; the tree is compiled as parsed.
      let syntax = try PredicateSyntax(parsingUTF8: format, arguments: args)
      let predicate = try SiftPredicate(
        syntax: syntax, format: String(decoding: format, as: UTF8.self), options: CompileOptions())
      Console.out.writeLine("predicate: \(predicate.predicateFormat)")
      Console.out.writeLine(predicate.bytecodeListing)
      return .success
    } catch {
      Console.error(error.description)
      return .failure
    }
  }
}
