/// How an entry point of sift.h ends: its status, and on failure an error object written to
/// the caller's `sift_error **` when it gave one.
enum Reporting {
  /// Runs `body`; on failure writes an error object to `error` (when not NULL) and returns
  /// the failure's status. `*error` is NULL on entry and after a success.
  @inline(__always)
  static func run(_ errorOut: UnsafeMutablePointer<OpaquePointer?>?, _ body: () throws(Failure) -> Int32) -> Int32 {
    errorOut?.pointee = nil
    do {
      return try body()
    } catch {
      if let errorOut { errorOut.pointee = HandleTable.shared.insert(ErrorObject(error)) }
      return error.status.rawValue
    }
  }

  /// Runs `body` for a call without an error object.
  @inline(__always)
  static func run(_ body: () throws(Failure) -> Int32) -> Int32 {
    do {
      return try body()
    } catch {
      return error.status.rawValue
    }
  }

  /// The live object `handle` names, or a `handle` failure naming what was expected.
  @inline(__always)
  static func object<T: HandleObject>(_ handle: OpaquePointer?, _ type: T.Type, _ what: String) throws(Failure) -> T {
    guard let object = HandleTable.shared.object(handle, as: type) else {
      throw Failure(.handle, "\(what) is not a live handle")
    }
    return object
  }

  /// A new handle for `object` written to `out`.
  static func publish<T: HandleObject>(_ object: T, to out: UnsafeMutablePointer<OpaquePointer?>) throws(Failure) {
    guard let handle = HandleTable.shared.insert(object) else { throw Failure(.memory, "out of handles") }
    out.pointee = handle
  }
}

/// The predicate objects handles name.
extension CompiledPredicate: HandleObject {
  static let kind = HandleKind.predicate
}

extension PredicateSetObject: HandleObject {
  static let kind = HandleKind.set
}
