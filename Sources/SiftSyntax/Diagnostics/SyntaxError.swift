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

  /// Lines longer than this many Unicode scalars are shown as a window around the caret.
  static let maxLineWidth = 120
  /// How many scalars of context a window keeps before the caret.
  static let contextBeforeCaret = 40

  /// Terminal columns a scalar takes: 0 for combining marks and format characters (zero
  /// width joiner, variation selectors), 2 for East Asian wide and fullwidth characters
  /// and most emoji, 1 otherwise.
  static func displayWidth(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  package func render(severity: String, message: String, range: SourceRange, hint: String?) -> String {
    let start = min(max(0, range.start), text.bytes.count)
    let line = text.lineBounds(containing: start)
    let location = text.location(of: start)
    var out = "\(location): \(severity): \(message)\n"
    let scalars = Array(text.text(line.start, line.end).unicodeScalars)
    let caret = text.scalarCount(line.start, min(start, line.end))
    let spanEnd = min(max(range.end, start), line.end)
    let spanScalars = text.scalarCount(start, spanEnd)
    // A very long line (a generated or minified predicate) is cut to a window around the
    // caret, with "…" where text was left out.
    var window = 0..<scalars.count
    if scalars.count > Self.maxLineWidth {
      var lower = max(0, caret - Self.contextBeforeCaret)
      let upper = min(scalars.count, lower + Self.maxLineWidth)
      lower = max(0, upper - Self.maxLineWidth)
      window = lower..<upper
    }
    if window.lowerBound > 0 { out += "…" }
    out.unicodeScalars.append(contentsOf: scalars[window])
    if window.upperBound < scalars.count { out += "…" }
    out += "\n"
    // Keep tabs in the gutter so the caret lines up under tab-indented text, and give wide
    // (East Asian) characters two columns and combining marks none, as terminals do.
    var gutter = window.lowerBound > 0 ? " " : ""
    for scalar in scalars[window.lowerBound..<min(caret, window.upperBound)] {
      gutter += scalar == "\t" ? "\t" : String(repeating: " ", count: Self.displayWidth(scalar))
    }
    let windowSpanEnd = min(caret + spanScalars, window.upperBound)
    var width = 0
    if caret < windowSpanEnd {
      for scalar in scalars[caret..<windowSpanEnd] { width += scalar == "\t" ? 1 : Self.displayWidth(scalar) }
    }
    out += gutter + "^" + String(repeating: "~", count: max(1, width) - 1)
    if let hint { out += "\nhint: \(hint)" }
    return out
  }
}
