import Synchronization

/// A value the user sets per Focus, modelled on App Intents' `@Parameter(title:default:)`.
///
/// The system, not the app, fills the value in: it builds a fresh filter and sets each
/// parameter from what the user saved for the Focus. A required parameter needs a default;
/// an optional one starts as nil.
@propertyWrapper
public struct FocusParameter<Value: FocusParameterRepresentable>: Sendable {
  /// The label shown next to the parameter in Focus settings.
  public let title: String
  /// A longer explanation shown under the parameter; nil when there is none.
  public let description: String?
  // A box, so the system can fill the fresh filter found through `Mirror` (which only
  // reads). The app's setter replaces the box instead, so copies keep value semantics.
  private var storage: FocusParameterStorage<Value>

  /// A parameter with a default, used until the user sets a value.
  public init(title: String, description: String? = nil, default defaultValue: Value) {
    self.title = title
    self.description = description
    self.storage = FocusParameterStorage(defaultValue)
  }

  /// An optional parameter: nil until the user sets a value.
  public init(title: String, description: String? = nil) where Value: ExpressibleByNilLiteral {
    self.init(title: title, description: description, default: nil)
  }

  /// The current value: the saved one, or the default.
  public var wrappedValue: Value {
    get { storage.value }
    set { storage = FocusParameterStorage(newValue, isSet: true) }
  }

  /// The parameter itself (`$name`), for its metadata.
  public var projectedValue: FocusParameter<Value> { self }

  /// Whether the parameter may be left unset.
  public var isOptional: Bool { Value.isOptionalFocusParameter }

  /// Whether a value has been set (by the system or the app), as opposed to the default.
  public var isSet: Bool { storage.isSet }
}

/// What the system needs from any parameter, whatever its value type.
protocol AnyFocusParameter: Sendable {
  var title: String { get }
  var description: String? { get }
  var elementKind: FocusParameterKind? { get }
  var isOptional: Bool { get }
  var isSet: Bool { get }
  var kind: FocusParameterKind { get }
  var savedValue: FocusParameterValue? { get }
  /// Resolves and stores a saved value in place; only used on a filter nobody else holds yet.
  func fill(with value: FocusParameterValue) async throws
}

extension FocusParameter: AnyFocusParameter {
  var kind: FocusParameterKind { Value.focusParameterKind }
  var elementKind: FocusParameterKind? { Value.focusParameterElementKind }
  var savedValue: FocusParameterValue? { storage.isSet ? wrappedValue.focusParameterValue : nil }

  func fill(with value: FocusParameterValue) async throws {
    let resolved = try await Value.resolveFocusParameter(value)
    storage.set(resolved)
  }
}

/// The shared cell behind a ``FocusParameter``; the mutex makes it `Sendable`.
final class FocusParameterStorage<Value: Sendable>: Sendable {
  private let state: Mutex<(value: Value, isSet: Bool)>

  init(_ value: Value, isSet: Bool = false) {
    state = Mutex((value, isSet))
  }

  var value: Value { state.withLock { $0.value } }
  var isSet: Bool { state.withLock { $0.isSet } }

  func set(_ value: Value) {
    state.withLock { $0 = (value, true) }
  }
}
