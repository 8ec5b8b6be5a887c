import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// Entry point: `sift SUBCOMMAND …`.
enum SiftCommand {
  static let help = """
    usage: sift <command> [options]

    Sift evaluates NSPredicate format strings on Linux.

    commands:
      parse     check a predicate; print its canonical form or its syntax tree

    Run 'sift <command> --help' for a command's options.
    """

  static func run() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
      Console.error(help)
      return ExitCode.usage.rawValue
    }
    arguments.removeFirst()
    let code: ExitCode
    do throws(UsageError) {
      switch command {
      case "--help", "-h", "help":
        Console.out.writeLine(help)
        code = .success
      case "parse": code = try ParseCommand.run(arguments)
      default:
        throw UsageError(message: "unknown command '\(command)'\n\n\(help)")
      }
    } catch {
      Console.error("sift: \(error.message)")
      code = .usage
    }
    Console.out.flush()
    return code.rawValue
  }
}

exit(SiftCommand.run())
