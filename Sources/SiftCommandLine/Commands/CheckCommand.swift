import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift check`: validate a file of predicates, one per line, reporting every bad line.
enum CheckCommand {
  /// The text `sift check --help` prints.
  static let help = """
    usage: sift check [--args JSON_ARRAY] [--max-line-bytes N] [--] FILE

    Parses and compiles each line of FILE ('-' for stdin) as a predicate; blank lines and
    comment lines, whose first characters after any blanks are '//', are skipped (no
    predicate starts with '/'; '#' starts predicates such as #"fill-opacity" == 1). Every
    invalid line's diagnostic goes to stderr as 'FILE:LINE: …', then a summary
    'FILE: N predicates, M invalid'.
    Exit 0 if all are valid, 1 if any is invalid, 2 if FILE cannot be read.

      --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order, bound to
                         every line; a line with fewer specifiers than values gets a
                         warning (Apple ignores the rest, and so does Sift), not an error
      --max-line-bytes N the longest line read, in bytes without its ending (default
                         16777216, 16 MiB); a longer line is invalid, and is skipped
                         without being held in memory
      --                 end of options: the next argument is FILE, even when it starts
                         with '-'
    """

  /// Runs `sift check` with the arguments after the subcommand name.
  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    let parsed = try SimpleArguments(
      arguments, command: "check", tooMany: "sift check takes one file", readsLines: true)
    if parsed.wantsHelp {
      Console.out.writeLine(help)
      return .success
    }
    let argsJSON = parsed.argsJSON
    let file = parsed.positional
    guard let file else { throw UsageError(message: "sift check needs a file ('-' for stdin)") }
    let args = try CLIArguments.parseArray(argsJSON)

    let path = FileName(file)
    let fromStdin = path.isStandardInput
    // Diagnostics name stdin the way compilers do, so that '-:3:' is not read as an option.
    let name = fromStdin ? "<stdin>" : path.display
    let fd: Int32
    if fromStdin {
      fd = 0
    } else {
      // The path's own bytes, so that a name that is not valid UTF-8 still opens.
      fd = path.open(O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        let error = errno
        throw UsageError(message: "cannot open \(name): \(describe(error))")
      }
    }
    defer { if !fromStdin { close(fd) } }

    var predicates = 0
    var invalid = 0
    var reader = LineReader(fd: fd, maxLineBytes: parsed.maxLineBytes ?? LineReader.defaultMaxLineBytes)
    // Diagnostics go to stderr as they are found (Console.error writes each at once).
    let ok = reader.forEachItem(writingOut: []) { item in
      let line: UnsafeBufferPointer<UInt8>
      let number: Int
      switch item {
      case .line(let whole):
        line = whole.bytes
        number = whole.number
      case .tooLong(let long):
        // An error even were it a comment: nothing of it was kept to tell.
        predicates += 1
        invalid += 1
        Console.error("\(name):\(long.number): error: \(long.message)")
        return true
      }
      if PredicateLines.isBlank(line) || PredicateLines.isComment(line) { return true }
      predicates += 1
      let bytes = Array(line)
      if let diagnostic = diagnostic(bytes, arguments: args) {
        invalid += 1
        Console.error("\(name):\(number): \(diagnostic)")
      } else if !args.isEmpty {
        // Apple ignores arguments beyond a format's specifiers; so does Sift, with a warning.
        let unused = PredicateSyntax.unusedArgumentCount(
          in: String(decoding: bytes, as: UTF8.self), arguments: args.count)
        if unused > 0 {
          let specifiers = args.count - unused
          Console.error(
            "\(name):\(number): warning: \(unused) of the \(args.count) arguments \(unused == 1 ? "is" : "are") "
              + "unused: the line has \(specifiers) format specifier\(specifiers == 1 ? "" : "s")")
        }
      }
      return true
    }
    guard ok else {
      // Taken before anything else can set it: errno belongs to the read that failed
      // (EISDIR for a directory, which opens fine).
      let error = errno
      throw UsageError(message: "cannot read \(name): \(describe(error))")
    }
    Console.error("\(name): \(predicates) \(predicates == 1 ? "predicate" : "predicates"), \(invalid) invalid")
    return invalid == 0 ? .success : .failure
  }

  /// The rendered diagnostic for one line, or nil if it parses and compiles. Compiling
  /// too catches what the parser accepts but no evaluation could run, such as an invalid
  /// constant `MATCHES` pattern.
  static func diagnostic(_ line: [UInt8], arguments args: [SiftValue]) -> String? {
    do throws(PredicateSyntaxError) {
      // Parsing the bytes reports invalid UTF-8 at its offset instead of repairing it; the
      // tree is compiled as parsed.
      let syntax = try PredicateSyntax(parsingUTF8: line, arguments: args)
      _ = try SiftPredicate(syntax: syntax, format: String(decoding: line, as: UTF8.self), options: CompileOptions())
      return nil
    } catch {
      return error.description
    }
  }

  /// The system's text for an `errno` value.
  private static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
