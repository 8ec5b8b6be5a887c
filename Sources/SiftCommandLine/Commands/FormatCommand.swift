import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// `sift format`: print the canonical text of a predicate, or of each line of stdin.
enum FormatCommand {
  /// The text `sift format --help` prints.
  static let help = """
    usage: sift format [--args JSON_ARRAY] [--] 'PREDICATE'
           sift format [--args JSON_ARRAY] [--max-line-bytes N] < predicates.txt

    Prints the canonical form of an NSPredicate format string (exit 0), or the
    diagnostic on stderr (exit 1).

    With no predicate, reads one predicate per line from stdin and writes one line per
    input line, in order: its canonical form, or an empty line for an empty line or a line
    that does not parse or is over --max-line-bytes. The diagnostic of such a line goes to
    stderr as 'line N: …'. Each answer is written before a read that would wait.
    Exit 0, or 1 if any line did not parse.

      --args JSON_ARRAY  values for %@, %K and numeric specifiers, in order (with stdin,
                         bound to every line)
      --max-line-bytes N with stdin: the longest line read, in bytes without its ending
                         (default 16777216, 16 MiB); a longer line is skipped without
                         being held in memory
      --                 end of options: the next argument is the predicate, even when it
                         starts with '-'
    """

  /// Runs `sift format` with the arguments after the subcommand name.
  static func run(_ arguments: [CommandLineArgument]) throws(UsageError) -> ExitCode {
    let parsed = try SimpleArguments(
      arguments, command: "format", tooMany: "sift format takes one predicate", readsLines: true)
    if parsed.wantsHelp {
      Console.out.writeLine(help)
      return .success
    }
    let argsJSON = parsed.argsJSON
    let format = parsed.positional?.bytes
    let args = try CLIArguments.parseArray(argsJSON)
    guard let format else {
      return formatEachLine(arguments: args, maxLineBytes: parsed.maxLineBytes ?? LineReader.defaultMaxLineBytes)
    }
    guard parsed.maxLineBytes == nil else {
      throw UsageError(message: "--max-line-bytes limits the lines of standard input; give no predicate")
    }
    do {
      let predicate = try PredicateSyntax(parsingUTF8: format, arguments: args)
      Console.out.writeLine(predicate.predicateFormat)
      return .success
    } catch {
      Console.error(error.description)
      return .failure
    }
  }

  /// The stdin mode: exactly one output line per input line, so that `paste` or a line
  /// number lines the answers up with the input even when some lines fail.
  static func formatEachLine(arguments args: [SiftValue], maxLineBytes: Int) -> ExitCode {
    var reader = LineReader(fd: 0, maxLineBytes: maxLineBytes)
    var anyFailed = false
    let ok = reader.forEachItem(writingOut: [Console.out]) { item in
      let line: UnsafeBufferPointer<UInt8>
      let number: Int
      switch item {
      case .line(let whole):
        line = whole.bytes
        number = whole.number
      case .tooLong(let long):
        anyFailed = true
        Console.out.writeLine("")
        Console.error("line \(long.number): error: \(long.message)")
        return !Console.out.closed
      }
      if PredicateLines.isBlank(line) {
        Console.out.writeLine("")
      } else {
        do throws(PredicateSyntaxError) {
          let predicate = try PredicateSyntax(parsingUTF8: Array(line), arguments: args)
          Console.out.writeLine(predicate.predicateFormat)
        } catch {
          anyFailed = true
          Console.out.writeLine("")
          Console.error("line \(number): \(error.description)")
        }
      }
      return !Console.out.closed
    }
    guard ok else {
      // Taken before anything else can set it: errno belongs to the read that failed.
      let error = errno
      Console.out.flush()
      Console.error("sift format: error reading standard input: \(String(cString: strerror(error)))")
      return .failure
    }
    Console.out.flush()
    return anyFailed ? .failure : .success
  }
}

/// Line classification shared by the commands that read one predicate per line.
enum PredicateLines {
  /// True for an empty line or one of only the whitespace the lexer skips: such a line
  /// holds no predicate, and parsing it would only report "expected a predicate".
  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    line.allSatisfy(isWhitespace)
  }

  /// True for a line whose first bytes after the whitespace the lexer skips are `//`. No
  /// predicate can start so: `/` is only ever the division operator, between two operands.
  /// (`#` cannot mark a comment: `#"fill-opacity" == 1` and `#like == 1` are predicates,
  /// and the canonical printer writes the first.)
  static func isComment(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.firstIndex(where: { !isWhitespace($0) }) else { return false }
    return line.count - first >= 2 && line[first] == UInt8(ascii: "/") && line[first + 1] == UInt8(ascii: "/")
  }

  /// The bytes the lexer skips between tokens.
  private static func isWhitespace(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: true
    default: false
    }
  }
}
