/// A mistake in a predicate's text, found while lexing, parsing or binding arguments.
///
/// It carries the UTF-8 byte range of the offending text; ``render(source:)`` turns it into
/// the one diagnostic format Sift uses everywhere: message, `line:column`, the source line
/// and a caret under the span, then an optional hint.
public struct SyntaxError: Error, Hashable, Sendable {
  /// What went wrong, in one sentence without a trailing period.
  public var message: String
  /// The UTF-8 byte range of the text the message is about.
  public var range: SourceRange
  /// What would be valid here, when Sift can tell.
  public var hint: String?

  /// Creates an error about the text in `range`.
  public init(_ message: String, at range: SourceRange, hint: String? = nil) {
    self.message = message
    self.range = range
    self.hint = hint
  }

  /// The line and column of the start of ``range`` in `source`.
  public func location(in source: String) -> SourceLocation {
    SourceText(source).location(of: range.start)
  }

  /// The full diagnostic for `source`, the text that was parsed:
  ///
  /// ```
  /// 1:9: error: expected an expression after '=='
  /// name == AND x
  ///         ^~~
  /// hint: …
  /// ```
  public func render(source: String) -> String {
    DiagnosticRenderer(text: SourceText(source)).render(
      severity: "error", message: message, range: range, hint: hint)
  }
}

/// A syntax error together with the text it is about, so that `description` is the
/// rendered diagnostic. This is what ``parsePredicate(_:arguments:options:)`` throws.
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The error itself.
  public var error: SyntaxError
  /// The predicate text that was parsed.
  public var source: String

  /// Pairs an error with its source text.
  public init(_ error: SyntaxError, source: String) {
    self.error = error
    self.source = source
  }

  /// The rendered diagnostic (see ``SyntaxError/render(source:)``).
  public var description: String { error.render(source: source) }
}

/// Renders one diagnostic. Shared by syntax errors and evaluation errors.
package struct DiagnosticRenderer {
  let text: SourceText

  package init(source: String) { text = SourceText(source) }
  init(text: SourceText) { self.text = text }

  package func render(severity: String, message: String, range: SourceRange, hint: String?) -> String {
    let start = min(max(0, range.start), text.bytes.count)
    let line = text.lineBounds(containing: start)
    let location = text.location(of: start)
    var out = "\(location): \(severity): \(message)\n"
    out += text.text(line.start, line.end) + "\n"
    // Keep tabs in the gutter so the caret lines up under tab-indented text.
    var gutter = ""
    var i = line.start
    while i < min(start, line.end) {
      let b = text.bytes[i]
      if b == UInt8(ascii: "\t") {
        gutter += "\t"
      } else if b & 0xC0 != 0x80 {
        gutter += " "
      }
      i += 1
    }
    let spanEnd = min(max(range.end, start), line.end)
    let width = max(1, text.scalarCount(start, spanEnd))
    out += gutter + "^" + String(repeating: "~", count: width - 1)
    if let hint { out += "\nhint: \(hint)" }
    return out
  }
}
