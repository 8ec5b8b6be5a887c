/// One parameter of a filter, as the system lists it.
public struct FocusParameterDescription: Sendable, Hashable {
  /// The property name without the wrapper's underscore; the key of saved values.
  public var key: String
  /// The label shown in Focus settings.
  public var title: String
  /// The explanation under the label, if the app gave one.
  public var description: String?
  /// Whether the parameter may be left unset.
  public var isOptional: Bool
  /// Whether a value is set (as opposed to the default).
  public var isSet: Bool
  /// The kind of saved value it takes.
  public var kind: FocusParameterKind
  /// For a list (``FocusParameterKind/array``), the kind of each element.
  public var elementKind: FocusParameterKind?
}

extension FocusFilter {
  /// The filter's parameters in declaration order, with their current state.
  public var parameters: [FocusParameterDescription] {
    parameterCells.map { key, cell in
      FocusParameterDescription(
        key: key, title: cell.title, description: cell.description, isOptional: cell.isOptional, isSet: cell.isSet,
        kind: cell.kind, elementKind: cell.elementKind)
    }
  }

  /// The parameters of a default-constructed filter: what the user can configure.
  public static var parameters: [FocusParameterDescription] { Self().parameters }

  /// The values that are set, keyed by parameter; what the system saves for a Focus.
  public var parameterValues: [String: FocusParameterValue] {
    var values: [String: FocusParameterValue] = [:]
    for (key, cell) in parameterCells {
      if let value = cell.savedValue { values[key] = value }
    }
    return values
  }

  /// A filter built from saved values: a fresh `Self()` with each value resolved (entities
  /// through their query) and set. Parameters without a value keep their defaults.
  ///
  /// - Throws: ``FocusParameterError`` for an unknown key, a value of the wrong kind, an
  ///   entity the query cannot find or an enum raw value the app does not have.
  public init(parameterValues values: [String: FocusParameterValue]) async throws {
    self.init()
    let cells = Dictionary(parameterCells, uniquingKeysWith: { first, _ in first })
    // Sorted, so that with several bad keys the error is the same on every run.
    for (key, value) in values.sorted(by: { $0.key < $1.key }) {
      guard let cell = cells[key] else {
        throw FocusParameterError(filter: Self.registryKey, key: key, reason: .unknownParameter)
      }
      do {
        try await cell.fill(with: value)
      } catch let reason as FocusParameterError.Reason {
        throw FocusParameterError(filter: Self.registryKey, key: key, reason: reason)
      } catch {
        throw FocusParameterError(filter: Self.registryKey, key: key, reason: .queryFailed("\(error)"))
      }
    }
  }

  /// A copy with `values` applied over the values already set; built fresh, so `self` is
  /// unchanged.
  public func applying(_ values: [String: FocusParameterValue]) async throws -> Self {
    try await Self(parameterValues: parameterValues.merging(values) { _, new in new })
  }

  /// The `@FocusParameter` properties, found by reflection; the stored property of
  /// `@FocusParameter var name` is `_name`.
  var parameterCells: [(key: String, cell: any AnyFocusParameter)] {
    Mirror(reflecting: self).children.compactMap { child in
      guard let label = child.label, let cell = child.value as? any AnyFocusParameter else { return nil }
      return (label.hasPrefix("_") ? String(label.dropFirst()) : label, cell)
    }
  }
}
