import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Entry point: `sift SUBCOMMAND …`.
package enum SiftCommand {
  static let help = """
    usage: sift <command> [options]

    Sift evaluates NSPredicate format strings on Linux.

    commands:
      parse     check a predicate; print its canonical form or its syntax tree
      explain   print the bytecode a predicate compiles to
      cases     evaluate JSON Lines cases: {"format", "args", "object", "variables"}
      format    print the canonical form of a predicate, or of each line of stdin
      check     parse and compile a file of predicates, one per line; report every error
      filter    write the lines of a JSON Lines stream that match a predicate
      bench     measure how fast a predicate decides the lines of a file
      route     for each JSON line, the ids of every rule (predicate) it matches, indexed
      serve     route a NATS JetStream stream through rules kept in a JetStream bucket

    Run 'sift <command> --help' for a command's options.
    """

  /// Runs the subcommand named in the process's arguments; returns the exit status.
  package static func run() -> Int32 {
    let closed = StandardDescriptors.secure()
    if closed.contains(1) || closed.contains(2) {
      // Answers or diagnostics would go nowhere: refuse rather than lose them.
      Console.error("sift: standard \(closed.contains(1) ? "output" : "error") is closed")
      return ExitCode.usage.rawValue
    }
    var arguments = CommandLineArgument.all.dropFirst()
    guard let command = arguments.popFirst()?.text else {
      Console.error(help)
      return ExitCode.usage.rawValue
    }
    var code: ExitCode
    do throws(UsageError) {
      switch command {
      case "--help", "-h", "help":
        Console.out.writeLine(help)
        code = .success
      case "parse": code = try ParseCommand.run(Array(arguments))
      case "cases": code = try CasesCommand.run(Array(arguments))
      case "explain": code = try ExplainCommand.run(Array(arguments))
      case "format": code = try FormatCommand.run(Array(arguments))
      case "check": code = try CheckCommand.run(Array(arguments))
      case "filter": code = try FilterCommand.run(Array(arguments))
      case "bench": code = try BenchCommand.run(Array(arguments))
      case "route": code = try RouteCommand.run(Array(arguments))
      case "serve": code = try ServeCommand.run(Array(arguments))
      default:
        throw UsageError(message: "unknown command '\(command)'\n\n\(help)")
      }
    } catch {
      Console.error("sift: \(error.message)")
      code = .usage
    }
    Console.out.flush()
    if let failure = Console.out.failure {
      Console.error("sift: error writing standard output: \(String(cString: strerror(failure)))")
      if code == .success { code = .failure }
    }
    return code.rawValue
  }
}

/// One command-line argument: its text for matching options, and its exact bytes, so that
/// a predicate or JSON argument that is not valid UTF-8 is reported instead of repaired.
struct CommandLineArgument {
  var text: String
  var bytes: [UInt8]

  static var all: [CommandLineArgument] {
    (0..<Int(CommandLine.argc)).map { i in
      guard let p = CommandLine.unsafeArgv[i] else { return CommandLineArgument(text: "", bytes: []) }
      let bytes = Array(
        UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
      return CommandLineArgument(text: String(decoding: bytes, as: UTF8.self), bytes: bytes)
    }
  }
}
