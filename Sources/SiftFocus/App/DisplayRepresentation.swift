import Foundation

/// How Focus settings show a configured filter: a title and an optional subtitle.
public struct DisplayRepresentation: Sendable, Hashable {
  /// The main line ("Set Account, Status, and Look").
  public var title: String
  /// The second line ("Work, In a meeting, and Dark").
  public var subtitle: String?

  /// Creates a representation.
  public init(title: String, subtitle: String? = nil) {
    self.title = title
    self.subtitle = subtitle
  }

  /// The summary the talk's example builds: "Set" and the names of the set parameters as an
  /// "and" list, over their values as an "and" list. Nil when nothing is set.
  ///
  /// Both lists use Foundation's standard-width list format for `locale`, as the talk's
  /// `formatted()` call does; in en_US, three values give "Work, In a meeting, and Dark"
  /// (with the serial comma) and two give "Status and Look". The title phrase is the app's
  /// to localise: `titleFormat` is a template in which `%@` stands for the list of names
  /// ("Set %@" by default, "Régler %@" for fr_FR).
  public static func summary(
    of items: [(name: String, value: String)],
    locale: Locale = .current,
    titleFormat: String = "Set %@"
  ) -> DisplayRepresentation? {
    guard !items.isEmpty else { return nil }
    let style = ListFormatStyle<StringStyle, [String]>.list(type: .and, width: .standard).locale(locale)
    let names = items.map(\.name).formatted(style)
    let values = items.map(\.value).formatted(style)
    let title =
      titleFormat.contains("%@") ? titleFormat.replacingOccurrences(of: "%@", with: names) : "\(titleFormat) \(names)"
    return DisplayRepresentation(title: title, subtitle: values)
  }
}
