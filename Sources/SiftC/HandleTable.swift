import Synchronization

/// The types of object a handle of sift.h names.
enum HandleKind: UInt8 {
  case predicate = 1
  case set
  case lines
  case matches
  case error
}

/// An object a handle can name.
protocol HandleObject: AnyObject, Sendable {
  static var kind: HandleKind { get }
}

/// Every live handle of the C interface. A handle is not a pointer: it is a slot number and
/// that slot's generation, packed into the pointer's bits (slot + 1 in the low 32, the
/// generation in the high 32), and it is looked up here on every call. So a freed handle
/// (its slot's generation moved on), a made-up one, or one of another type is an error
/// return, never a read of freed memory; a slot is reused only with a new generation, so a
/// stale handle does not reach its slot's next object (until that one slot is reused 2^32
/// times).
///
/// This is the one piece of process-wide mutable state in Sift, and the C interface needs
/// it: a C caller holds only the handle, so the table that tells live handles from dead ones
/// must outlive every call. It is guarded by one lock held for a few instructions per call.
final class HandleTable: Sendable {
  /// The table of this process.
  static let shared = HandleTable()

  private struct Slot {
    var generation: UInt32 = 1
    var kind: HandleKind? = nil
    var object: AnyObject? = nil
  }

  private struct Table {
    var slots: [Slot] = []
    var free: [Int] = []
  }

  private let table = Mutex(Table())

  /// The most slots: the low 32 bits of a handle hold slot + 1.
  static let maxSlots = Int(UInt32.max) - 1

  /// A new handle for `object`, or nil when the table is full.
  func insert<T: HandleObject>(_ object: T) -> OpaquePointer? {
    let packed: UInt64? = table.withLock { t in
      let index: Int
      if let reused = t.free.popLast() {
        index = reused
      } else {
        guard t.slots.count < Self.maxSlots else { return nil }
        index = t.slots.count
        t.slots.append(Slot())
      }
      t.slots[index].kind = T.kind
      t.slots[index].object = object
      return UInt64(t.slots[index].generation) << 32 | UInt64(index + 1)
    }
    return packed.flatMap { OpaquePointer(bitPattern: UInt(truncatingIfNeeded: $0)) }
  }

  /// The live object of type `T` that `handle` names, or nil.
  func object<T: HandleObject>(_ handle: OpaquePointer?, as _: T.Type) -> T? {
    guard let (index, generation) = Self.unpack(handle) else { return nil }
    return table.withLock { t -> T? in
      guard index < t.slots.count, t.slots[index].generation == generation, t.slots[index].kind == T.kind,
        let object = t.slots[index].object
      else { return nil }
      // The kind says which class the slot holds: each kind has one.
      return unsafeDowncast(object, to: T.self)
    }
  }

  /// Ends `handle` (of type `T`); returns its object, released by the caller outside the lock
  /// (a set's predicates may take a while to free), or nil when it was not live.
  func remove<T: HandleObject>(_ handle: OpaquePointer?, as _: T.Type) -> T? {
    guard let (index, generation) = Self.unpack(handle) else { return nil }
    return table.withLock { t -> T? in
      guard index < t.slots.count, t.slots[index].generation == generation, t.slots[index].kind == T.kind,
        let object = t.slots[index].object
      else { return nil }
      t.slots[index].object = nil
      t.slots[index].kind = nil
      t.slots[index].generation &+= 1
      t.free.append(index)
      return unsafeDowncast(object, to: T.self)
    }
  }

  /// The number of live handles (for tests: a loop that frees what it makes keeps it flat).
  var liveCount: Int { table.withLock { $0.slots.count - $0.free.count } }

  private static func unpack(_ handle: OpaquePointer?) -> (index: Int, generation: UInt32)? {
    guard let handle else { return nil }
    let bits = UInt64(UInt(bitPattern: Int(bitPattern: handle)))
    let low = bits & 0xFFFF_FFFF
    guard low != 0 else { return nil }
    return (Int(low - 1), UInt32(truncatingIfNeeded: bits >> 32))
  }
}
