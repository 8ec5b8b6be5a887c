import Testing

@testable import SiftC

/// Handles are looked up, never dereferenced: a freed, forged or mistyped one is refused.
@Suite struct HandleTableTests {
  final class Thing: HandleObject {
    static let kind = HandleKind.lines
  }

  @Test func aFreedHandleStaysDeadWhenItsSlotIsReused() throws {
    let table = HandleTable()
    let first = try #require(table.insert(Thing()))
    #expect(table.object(first, as: Thing.self) != nil)
    #expect(table.remove(first, as: Thing.self) != nil)
    #expect(table.remove(first, as: Thing.self) == nil)
    let second = try #require(table.insert(Thing()))
    // The same slot (the low bits), a new generation.
    #expect(
      UInt(bitPattern: Int(bitPattern: second)) & 0xFFFF_FFFF == UInt(bitPattern: Int(bitPattern: first)) & 0xFFFF_FFFF)
    #expect(second != first)
    #expect(table.object(first, as: Thing.self) == nil)
    #expect(table.object(second, as: Thing.self) != nil)
    #expect(table.liveCount == 1)
  }

  @Test(arguments: [0, 1, 2, 0xFFFF_FFFF, 0x1234_5678_9ABC, Int.max, -1])
  func aForgedHandleIsRefused(_ bits: Int) {
    let table = HandleTable()
    _ = table.insert(Thing())
    let forged = OpaquePointer(bitPattern: bits)
    // Slot 1 generation 1 is the one live handle: `0x1_0000_0001`, not in the list.
    #expect(table.object(forged, as: Thing.self) == nil)
    #expect(table.remove(forged, as: Thing.self) == nil)
  }

  @Test func aHandleOfAnotherTypeIsRefused() throws {
    let table = HandleTable()
    let handle = try #require(table.insert(Thing()))
    #expect(table.object(handle, as: ErrorObject.self) == nil)
    #expect(table.remove(handle, as: ErrorObject.self) == nil)
    #expect(table.object(handle, as: Thing.self) != nil)
  }
}
