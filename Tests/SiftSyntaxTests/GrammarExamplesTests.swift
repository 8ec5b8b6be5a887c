import Foundation
import Testing

@testable import SiftSyntax

// Grammar/ is the single source of truth for the language: the EBNF, the precedence
// table and the example files. These tests read them at test time (located from this
// file's path), so adding an example file adds a test case.
//
//   Grammar/examples/valid/NNN-name.predicate      one predicate (one trailing newline is ignored)
//   Grammar/examples/valid/NNN-name.canonical      what it prints as (PredicateSyntax.predicateFormat)
//   Grammar/examples/invalid/NNN-name.predicate
//   Grammar/examples/invalid/NNN-name.diagnostic   the rendered error (PredicateSyntaxError.description)
//   Grammar/examples/known-issues/NNN-name.*       a .canonical or .diagnostic with the output Sift
//                                                  *should* give, and a .note with what it gives today
//   NNN-name.args.json (optional, any folder)      a JSON array: the format arguments

// MARK: - Example files

/// Paths and file access for `Grammar/`.
enum GrammarFiles {
  /// The package root: the nearest directory above this file that holds `Package.swift`.
  static let packageRoot: URL = {
    let fileManager = FileManager.default
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
      if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory
      }
      directory = directory.deletingLastPathComponent()
    }
    fatalError("no Package.swift above \(#filePath)")
  }()

  static let grammar = packageRoot.appendingPathComponent("Grammar")
  static let examples = grammar.appendingPathComponent("examples")

  /// The example folders and the sibling that holds each one's expected outcome.
  static let folders = ["valid", "invalid", "known-issues"]

  /// The names (`NNN-short-name`) of the `.predicate` files in one example folder, sorted.
  static func exampleNames(_ folder: String) -> [String] {
    let directory = examples.appendingPathComponent(folder)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".predicate") }.map { String($0.dropLast(".predicate".count)) }.sorted()
  }

  static func files(_ folder: String) -> [String] {
    let directory = examples.appendingPathComponent(folder)
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  /// The text of a file, or nil if it does not exist.
  static func text(_ url: URL) throws -> String? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// `text` without one trailing line feed (files end with a newline; the content does not).
  static func droppingOneNewline(_ text: String) -> String {
    var scalars = text.unicodeScalars[...]
    if scalars.last == "\n" { scalars = scalars.dropLast() }
    return String(String.UnicodeScalarView(scalars))
  }
}

/// One example: the predicate text, its format arguments and its expected-outcome siblings.
struct GrammarExample: CustomStringConvertible {
  let folder: String
  let name: String
  let source: String
  let arguments: [SiftValue]

  init(_ folder: String, _ name: String) throws {
    self.folder = folder
    self.name = name
    let predicate = try #require(try GrammarFiles.text(Self.url(folder, name, "predicate")))
    source = GrammarFiles.droppingOneNewline(predicate)
    if let json = try GrammarFiles.text(Self.url(folder, name, "args.json")) {
      arguments = try JSONDecoder().decode([JSONArgument].self, from: Data(json.utf8)).map(\.value)
    } else {
      arguments = []
    }
  }

  static func url(_ folder: String, _ name: String, _ suffix: String) -> URL {
    GrammarFiles.examples.appendingPathComponent(folder).appendingPathComponent("\(name).\(suffix)")
  }

  /// The content of the sibling `NNN-name.<suffix>` without its trailing newline, if it exists.
  func sibling(_ suffix: String) throws -> String? {
    try GrammarFiles.text(Self.url(folder, name, suffix)).map(GrammarFiles.droppingOneNewline)
  }

  var description: String { "Grammar/examples/\(folder)/\(name).predicate" }
}

/// A JSON value decoded into the value a format argument binds.
struct JSONArgument: Decodable {
  let value: SiftValue

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = .null
    } else if let b = try? container.decode(Bool.self) {
      value = .bool(b)
    } else if let i = try? container.decode(Int.self) {
      value = .int(i)
    } else if let d = try? container.decode(Double.self) {
      value = .double(d)
    } else if let s = try? container.decode(String.self) {
      value = .string(s)
    } else if let a = try? container.decode([JSONArgument].self) {
      value = .array(a.map(\.value))
    } else {
      value = .dictionary(try container.decode([String: JSONArgument].self).mapValues(\.value))
    }
  }
}

// MARK: - Checks shared by the example tests

/// A valid example parses, prints exactly `canonical`, and the canonical text is a fixed
/// point: it re-parses (without arguments) to an equal tree that prints identically.
func checkValid(_ example: GrammarExample, canonical: String) {
  let tree: PredicateSyntax
  do {
    tree = try PredicateSyntax(parsing: example.source, arguments: example.arguments)
  } catch {
    Issue.record("\(example) should parse, but:\n\(error.description)")
    return
  }
  let printed = tree.predicateFormat
  #expect(printed == canonical, "\(example): canonical form")
  do {
    let again = try PredicateSyntax(parsing: printed)
    #expect(again == tree, "\(example): the canonical text re-parses to a different tree")
    #expect(again.predicateFormat == printed, "\(example): the canonical text is not a fixed point")
  } catch {
    Issue.record("\(example): the canonical text does not re-parse:\n\(error.description)")
  }
}

/// An invalid example fails with exactly `diagnostic` as its rendered error.
func checkInvalid(_ example: GrammarExample, diagnostic: String) {
  do {
    let tree = try PredicateSyntax(parsing: example.source, arguments: example.arguments)
    Issue.record("\(example) should be rejected, but parsed as: \(tree.predicateFormat)")
  } catch {
    #expect(error.description == diagnostic, "\(example): diagnostic")
  }
}

// MARK: - Example tests

@Suite("Grammar examples")
struct GrammarExamplesTests {
  @Test(
    "Valid example: parses, prints its .canonical, re-parses to the same tree",
    arguments: GrammarFiles.exampleNames("valid"))
  func validExample(_ name: String) throws {
    let example = try GrammarExample("valid", name)
    let canonical = try #require(try example.sibling("canonical"), "\(example) has no .canonical")
    checkValid(example, canonical: canonical)
  }

  @Test(
    "Invalid example: fails with exactly its .diagnostic",
    arguments: GrammarFiles.exampleNames("invalid"))
  func invalidExample(_ name: String) throws {
    let example = try GrammarExample("invalid", name)
    let diagnostic = try #require(try example.sibling("diagnostic"), "\(example) has no .diagnostic")
    checkInvalid(example, diagnostic: diagnostic)
  }

  /// A known issue holds the output Sift should give. Until the bug is fixed the check
  /// fails, which is recorded as a known issue; once it passes, this test fails with
  /// "known issue was not recorded": move the files to valid/ or invalid/ (dropping the
  /// .note) so that the example is tested for real.
  @Test(
    "Known issue: still differs from the output it should give",
    arguments: GrammarFiles.exampleNames("known-issues"))
  func knownIssue(_ name: String) throws {
    let example = try GrammarExample("known-issues", name)
    let canonical = try example.sibling("canonical")
    let diagnostic = try example.sibling("diagnostic")
    try #require((canonical == nil) != (diagnostic == nil), "\(example) needs one .canonical or .diagnostic")
    withKnownIssue("see Grammar/examples/known-issues/\(name).note") {
      if let canonical { checkValid(example, canonical: canonical) }
      if let diagnostic { checkInvalid(example, diagnostic: diagnostic) }
    }
  }

  @Test("Example folders: every file belongs to an example, every example is complete")
  func folderLayout() throws {
    let required = ["valid": ["canonical"], "invalid": ["diagnostic"], "known-issues": ["note"]]
    let allowed = ["predicate", "canonical", "diagnostic", "args.json", "note"]
    for folder in GrammarFiles.folders {
      let names = GrammarFiles.exampleNames(folder)
      let prefixes = names.map { $0.prefix(while: { $0 != "-" }) }
      #expect(Set(prefixes).count == prefixes.count, "\(folder): two examples share a number")
      for name in names {
        #expect(
          name.range(of: #"^[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*$"#, options: .regularExpression) != nil,
          "\(folder)/\(name): names are NNN-short-name")
        for suffix in required[folder]! {
          #expect(
            try GrammarFiles.text(GrammarExample.url(folder, name, suffix)) != nil,
            "\(folder)/\(name) has no .\(suffix)")
        }
      }
      for file in GrammarFiles.files(folder) where file != "README.md" {
        let suffix = allowed.first { file.hasSuffix("." + $0) }
        #expect(suffix != nil, "\(folder)/\(file): unexpected file")
        if let suffix {
          let name = String(file.dropLast(suffix.count + 1))
          #expect(names.contains(name), "\(folder)/\(file) has no .predicate")
          if folder == "valid" { #expect(suffix != "diagnostic", "\(folder)/\(file)") }
          if folder == "invalid" { #expect(suffix != "canonical", "\(folder)/\(file)") }
        }
      }
    }
    #expect(GrammarFiles.exampleNames("valid").count >= 60)
    #expect(GrammarFiles.exampleNames("invalid").count >= 30)
  }
}

// MARK: - The EBNF file

/// `Grammar/Predicate.ebnf`, read into rules. Comments are removed; each rule keeps the
/// part it is in (1 lexical, 2 syntax, 3 name tables) and the tokens of its body.
struct EBNFGrammar {
  enum Item: Equatable {
    case symbol(String)
    case terminal(String)
    case characterClass(String)
    case character(String)
    case punctuation(Character)
  }

  struct Rule {
    var name: String
    var part: Int
    var body: [Item]

    var symbols: [String] {
      body.compactMap { if case .symbol(let s) = $0 { s } else { nil } }
    }
    var terminals: [String] {
      body.compactMap { if case .terminal(let s) = $0 { s } else { nil } }
    }
  }

  var rules: [Rule] = []

  init(_ text: String) throws {
    let clean = Self.removingComments(text)
    let originalLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let part2 = try #require(originalLines.firstIndex { $0.contains("Part 2: Syntax") })
    let part3 = try #require(originalLines.firstIndex { $0.contains("Part 3:") })
    var current: (name: String, part: Int, body: String)? = nil
    func finish() {
      if let c = current { rules.append(Rule(name: c.name, part: c.part, body: Self.tokenize(c.body))) }
    }
    for (number, line) in clean.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let first = line.first, first.isLetter, let definition = line.range(of: "::=") {
        finish()
        let name = line[..<definition.lowerBound].trimmingCharacters(in: .whitespaces)
        let part = number < part2 ? 1 : number < part3 ? 2 : 3
        current = (name, part, String(line[definition.upperBound...]))
      } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
        current?.body += " " + line
      }
    }
    finish()
  }

  static func load() throws -> EBNFGrammar {
    let url = GrammarFiles.grammar.appendingPathComponent("Predicate.ebnf")
    return try EBNFGrammar(try #require(try GrammarFiles.text(url)))
  }

  func rule(_ name: String) -> Rule? { rules.first { $0.name == name } }

  /// Replaces each `/* … */` with spaces (keeping line breaks), skipping quoted terminals
  /// and character classes, which may hold `/`, `*` or an unpaired quote.
  static func removingComments(_ text: String) -> String {
    var out = ""
    var chars = Array(text)[...]
    while let c = chars.first {
      if c == "/", chars.dropFirst().first == "*" {
        var rest = chars.dropFirst(2)
        while !rest.isEmpty, !(rest.first == "*" && rest.dropFirst().first == "/") {
          out.append(rest.first == "\n" ? "\n" : " ")
          rest = rest.dropFirst()
        }
        out += "    "
        chars = rest.dropFirst(2)
      } else if c == "'" || c == "\"" || c == "[" {
        let close: Character = c == "[" ? "]" : c
        let end = chars.dropFirst().firstIndex(of: close) ?? chars.endIndex - 1
        out += String(chars[...end])
        chars = chars[(end + 1)...]
      } else {
        out.append(c)
        chars = chars.dropFirst()
      }
    }
    return out
  }

  static func tokenize(_ body: String) -> [Item] {
    var items: [Item] = []
    var chars = Array(body)[...]
    while let c = chars.first {
      if c.isWhitespace {
        chars = chars.dropFirst()
      } else if c == "'" || c == "\"" || c == "[" {
        let close: Character = c == "[" ? "]" : c
        let end = chars.dropFirst().firstIndex(of: close) ?? chars.endIndex - 1
        let inner = String(chars[(chars.startIndex + 1)..<end])
        items.append(c == "[" ? .characterClass(inner) : .terminal(inner))
        chars = chars[(end + 1)...]
      } else if c == "#", chars.dropFirst().first == "x" {
        let run = chars.dropFirst(2).prefix { $0.isHexDigit }
        items.append(.character("#x" + String(run)))
        chars = chars.dropFirst(2 + run.count)
      } else if c.isLetter {
        var run = chars.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        while run.last == "-" { run = run.dropLast() }
        items.append(.symbol(String(run)))
        chars = chars.dropFirst(run.count)
      } else {
        items.append(.punctuation(c))
        chars = chars.dropFirst()
      }
    }
    return items
  }
}

/// The rule names the parser's doc comments claim: "Rule `name`" or
/// "Rules `a` and `b`" in a `///` line of a file in Sources/SiftSyntax/Parser.
func parserDocCommentRules() throws -> [String: String] {
  let directory = GrammarFiles.packageRoot.appendingPathComponent("Sources/SiftSyntax/Parser")
  var names: [String: String] = [:]
  for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
    let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("///") else { continue }
      var rest = trimmed.dropFirst(3).drop { $0 == " " }
      if rest.hasPrefix("Rules ") {
        rest = rest.dropFirst("Rules ".count)
      } else if rest.hasPrefix("Rule ") {
        rest = rest.dropFirst("Rule ".count)
      } else {
        continue
      }
      while rest.first == "`" {
        let name = rest.dropFirst().prefix { $0 != "`" }
        names[String(name)] = file
        rest = rest.dropFirst(name.count + 2)
        for separator in [", and ", ", ", " and "] where rest.hasPrefix(separator) {
          rest = rest.dropFirst(separator.count)
          break
        }
      }
    }
  }
  return names
}

/// `binary-expression-3` → `binary-expression`: the numbered levels of one rule.
func ruleFamily(_ name: String) -> String {
  guard let dash = name.lastIndex(of: "-"), !name[name.index(after: dash)...].isEmpty,
    name[name.index(after: dash)...].allSatisfy(\.isNumber)
  else { return name }
  return String(name[..<dash])
}

// MARK: - Grammar consistency tests

@Suite("Grammar files agree with the parser")
struct GrammarExamplesConsistencyTests {
  @Test("Every syntax rule of Predicate.ebnf names a parser function, and vice versa")
  func syntaxRulesMatchDocComments() throws {
    let grammar = try EBNFGrammar.load()
    let syntax = Set(grammar.rules.filter { $0.part == 2 }.map { ruleFamily($0.name) })
    let documented = try parserDocCommentRules()
    #expect(syntax.count >= 20, "found only \(syntax.sorted())")
    for name in syntax.subtracting(documented.keys).sorted() {
      Issue.record("Predicate.ebnf rule '\(name)' has no \"Rule `\(name)`\" doc comment in Sources/SiftSyntax/Parser")
    }
    for name in Set(documented.keys).subtracting(syntax).sorted() {
      Issue.record("\(documented[name]!) documents \"Rule `\(name)`\", which Predicate.ebnf does not define in Part 2")
    }
  }

  @Test("Every symbol used in Predicate.ebnf is defined exactly once")
  func symbolsAreDefined() throws {
    let grammar = try EBNFGrammar.load()
    let defined = grammar.rules.map(\.name)
    #expect(Set(defined).count == defined.count, "a rule is defined twice")
    for rule in grammar.rules {
      for symbol in rule.symbols where !defined.contains(symbol) {
        Issue.record("rule '\(rule.name)' uses '\(symbol)', which is not defined")
      }
    }
  }

  @Test("The binary-expression levels of Predicate.ebnf are binaryPrecedence")
  func binaryLevelsMatchTable() throws {
    let grammar = try EBNFGrammar.load()
    let levels = grammar.rules.filter { $0.name.hasPrefix("binary-expression-") }
    #expect(levels.count == binaryPrecedence.count)
    for (level, operators) in binaryPrecedence.enumerated() {
      let rule = try #require(grammar.rule("binary-expression-\(level)"))
      // Punctuation is quoted; the set operators are word rules (UNION, …).
      let words = rule.symbols.filter { $0.uppercased() == $0 && !$0.contains("-") }
      #expect(Set(rule.terminals + words) == Set(operators.map(\.0)), "binary-expression-\(level)")
      for (spelling, op) in operators {
        #expect(op.precedence == level, "BinaryOperator.\(op).precedence, for '\(spelling)'")
        #expect(op.rawValue == spelling, "'\(spelling)' prints as '\(op.rawValue)'")
      }
    }
    #expect(Set(binaryPrecedence.flatMap { $0.map(\.1) }) == Set(BinaryOperator.allCases))
  }

  @Test("Precedence.md lists binaryPrecedence and only rules of Predicate.ebnf")
  func precedenceTableMatches() throws {
    let grammar = try EBNFGrammar.load()
    let url = GrammarFiles.grammar.appendingPathComponent("Precedence.md")
    let text = try #require(try GrammarFiles.text(url))
    var rows: [String: [String]] = [:]  // grammar rule -> operators (code spans)
    for line in text.split(separator: "\n") where line.hasPrefix("|") && !line.hasPrefix("| ---") {
      let cells = markdownCells(line)
      guard cells.count == 4, cells[0] != "level" else { continue }
      let rule = cells[3].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      #expect(grammar.rule(rule)?.part == 2, "Precedence.md names '\(rule)', not a syntax rule of Predicate.ebnf")
      rows[rule] = codeSpans(cells[1])
    }
    for (level, operators) in binaryPrecedence.enumerated() {
      let listed = try #require(
        rows["binary-expression-\(level)"], "Precedence.md has no binary-expression-\(level) row")
      #expect(Set(listed) == Set(operators.map(\.0)), "Precedence.md, binary-expression-\(level)")
    }
  }

  @Test("ReservedWord in Predicate.ebnf is the lexer's keyword list, each spelled in any case")
  func reservedWordsMatchKeywords() throws {
    let grammar = try EBNFGrammar.load()
    let reserved = try #require(grammar.rule("ReservedWord")).symbols
    #expect(Set(reserved) == Set(Keyword.allCases.map(\.rawValue)))
    for word in reserved + ["FUNCTION", "TERNARY"] {
      let rule = try #require(grammar.rule(word))
      let spelled = rule.body.map { item -> String in
        switch item {
        case .characterClass(let c) where c.count == 2 && c.uppercased() == String(c.first!) + String(c.first!):
          String(c.first!)
        case .terminal("-"): "-"
        default: "?"
        }
      }.joined()
      #expect(spelled == word, "rule \(word) spells \(spelled)")
    }
    let printed = try #require(grammar.rule("PrinterEscapedWord"))
    #expect(printed.symbols.allSatisfy { Keyword.needsEscape($0) && Keyword(rawValue: $0) == nil })
  }

  @Test("BuiltinSelector in Predicate.ebnf is the list of built-in functions")
  func selectorsMatchBuiltinFunctions() throws {
    let grammar = try EBNFGrammar.load()
    let selectors = try #require(grammar.rule("BuiltinSelector")).terminals
    #expect(selectors.count == Set(selectors).count)
    #expect(Set(selectors) == Set(BuiltinFunction.allCases.map(\.rawValue)))
  }
}

/// The cells of a Markdown table row; `\|` inside a cell is a literal bar.
func markdownCells(_ line: Substring) -> [String] {
  var cells: [String] = []
  var cell = ""
  var escaped = false
  for c in line.dropFirst() {
    if escaped {
      cell.append(c)
      escaped = false
    } else if c == "\\" {
      escaped = true
    } else if c == "|" {
      cells.append(cell.trimmingCharacters(in: .whitespaces))
      cell = ""
    } else {
      cell.append(c)
    }
  }
  return cells
}

/// The contents of the `code spans` in a Markdown cell.
func codeSpans(_ cell: String) -> [String] {
  cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
}
