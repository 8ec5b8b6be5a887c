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
  /// The entities offered to the user in the picker; none by default (an
  /// ``EnumerableEntityQuery`` offers all of them).
  func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
  /// No suggestions.
  public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that can list every entity (a few mailboxes or accounts), modelled on App
/// Intents' `EnumerableEntityQuery`: lookups and suggestions come from ``allEntities()``.
/// Name the entity type with `typealias Entity = …` (Swift does not infer it from a
/// requirement of a refined protocol).
public protocol EnumerableEntityQuery: EntityQuery {
  /// Every entity of the type.
  func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
  /// The entities of ``allEntities()`` with these identifiers.
  public func entities(for identifiers: [String]) async throws -> [Entity] {
    let wanted = Set(identifiers)
    return try await allEntities().filter { wanted.contains($0.id) }
  }

  /// Every entity.
  public func suggestedEntities() async throws -> [Entity] { try await allEntities() }
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

  /// Resolves a saved list with one query. An identifier the query no longer finds (a
  /// deleted mailbox) is left out, so the filter allows less rather than failing the
  /// whole activation; the order of the saved list is kept.
  public static func resolveFocusParameters(_ values: [FocusParameterValue]) async throws -> [Self] {
    var identifiers: [String] = []
    for value in values {
      guard case .entity(let identifier) = value else { throw mismatch(value) }
      identifiers.append(identifier)
    }
    let found: [Self]
    do {
      found = try await defaultQuery.entities(for: identifiers)
    } catch {
      throw FocusParameterError.Reason.queryFailed(String(describing: error))
    }
    let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return identifiers.compactMap { byID[$0] }
  }
}
