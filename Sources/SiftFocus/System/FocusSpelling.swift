/// The one error for two spellings of one identifier: ids are compared by their bytes
/// (``IDKey``), but a configuration keeps apps and Focus names in `String`-keyed tables,
/// where two canonically equivalent spellings (`"caf\u{E9}"`, `"cafe\u{301}"`) would share
/// one entry. So a spelling with the same text as one already there and other bytes is
/// refused wherever an app id or a Focus name enters a user's state.
enum FocusSpelling {
  /// The message for `new`, which has the text of `existing` and other bytes; `kind` is
  /// "app id" or "Focus name".
  static func message(_ kind: String, _ new: String, _ existing: String) -> String {
    "the \(kind) \(AppRegistry.quoted(new)) has other bytes than the existing \(AppRegistry.quoted(existing)) "
      + "but the same text; \(kind)s are compared by bytes, so pick one spelling"
  }

  /// The first of `existing` with the text of `id` and other bytes, if any.
  static func clash(_ id: String, in existing: some Sequence<String>) -> String? {
    existing.first { $0 == id && !$0.sameBytes(as: id) }
  }
}

extension FocusSpelling {
  /// What refuses `configuration` as a user's whole state, as a message: two of its Focus
  /// names (modes, the active Focus, the Focus names of its saved parameters) or two of its
  /// app ids (of its saved parameters and its filters in force) with one text and other
  /// bytes, or an app id with the text of one of `registry`'s and other bytes. Nil if none.
  static func problem(in configuration: FocusConfiguration, registry: AppRegistry?) -> String? {
    var names: [String] = []
    let focusNames =
      configuration.modes.map(\.name) + Array(configuration.savedParameters.keys)
      + (configuration.activeFocus.map { [$0] } ?? [])
    for name in focusNames where !names.contains(where: { $0.sameBytes(as: name) }) {
      if let other = clash(name, in: names) { return message("Focus name", name, other) }
      names.append(name)
    }
    var apps: [String] = []
    let appIDs = configuration.savedParameters.values.flatMap(\.keys) + Array(configuration.inForce.keys)
    for app in appIDs where !apps.contains(where: { $0.sameBytes(as: app) }) {
      if let other = clash(app, in: apps) ?? registry?.clash(app) { return message("app id", app, other) }
      apps.append(app)
    }
    return nil
  }
}
