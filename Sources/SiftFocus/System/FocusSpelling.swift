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
