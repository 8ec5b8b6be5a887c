/// An app-defined object the user can pick as a Focus filter parameter (an account, a
/// calendar), modelled on App Intents' `AppEntity`.
///
/// The system saves only the identifier; it asks ``defaultQuery`` for the entity again
/// when it builds a filter, so a renamed or deleted account is seen as it is now.
public protocol AppEntity: Identifiable, Hashable, FocusParameterRepresentable where ID == String {
  /// The query the system uses to list and resolve entities of this type.
  associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self

  /// The name shown for this entity (in the filter's display representation, in pickers).
  var displayName: String { get }
  /// The name of the entity type, shown above the picker ("Account").
  static var typeDisplayName: String { get }
  /// The query for this type.
  static var defaultQuery: DefaultQuery { get }
}

/// Finds entities of one type: by identifier (to resolve saved values) and as suggestions
/// (what the user can pick when configuring a Focus).
public protocol EntityQuery: Sendable {
  /// The entity type this query returns.
  associatedtype Entity: AppEntity

  /// The entities with these identifiers; unknown identifiers are left out.
  func entities(for identifiers: [String]) async throws -> [Entity]
  /// The entities offered to the user in the picker.
  func suggestedEntities() async throws -> [Entity]
}

extension AppEntity {
  /// Entities are saved as ``FocusParameterKind/entity``.
  public static var focusParameterKind: FocusParameterKind { .entity }
  /// The entity's identifier.
  public var focusParameterValue: FocusParameterValue? { .entity(id) }

  /// Resolves a saved identifier through ``defaultQuery``.
  public static func resolveFocusParameter(_ value: FocusParameterValue) async throws -> Self {
    guard case .entity(let identifier) = value else { throw mismatch(value) }
    let found: [Self]
    do {
      found = try await defaultQuery.entities(for: [identifier])
    } catch {
      // Rendered so the reason stays Sendable and Hashable whatever the app throws.
      throw FocusParameterError.Reason.queryFailed(String(describing: error))
    }
    // The query may return more than asked for; pick the exact match.
    guard let entity = found.first(where: { $0.id == identifier }) else {
      throw FocusParameterError.Reason.entityNotFound(identifier: identifier)
    }
    return entity
  }
}
