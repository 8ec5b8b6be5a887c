import Foundation
import SiftFocus
import Testing

/// The configuration survives a restart, is written atomically, and a bad file is an error
/// that names the file, never a silent reset.
@Suite struct FocusStoreTests {
  static func temporaryStore() throws -> FocusStore {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-focus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return FocusStore(url: directory.appendingPathComponent("focus.json"))
  }

  @Test func aMissingFileIsTheDefaultConfiguration() throws {
    let store = try Self.temporaryStore()
    #expect(try store.load() == FocusConfiguration())
    #expect(try store.load().modes == FocusMode.builtIn)
  }

  @Test func savedConfigurationSurvivesARestart() throws {
    let store = try Self.temporaryStore()
    var configuration = FocusConfiguration()
    configuration.modes.append(FocusMode(name: "Reading"))
    configuration.activeFocus = "Work"
    configuration.savedParameters["Work"] = [
      "com.example.chat": [
        "alwaysUseDarkMode": .bool(false), "status": .string("In a meeting"),
        "account": .entity("work-account-identifier"),
      ]
    ]
    try store.save(configuration)
    // A new store on the same file: what a restarted process sees.
    let reloaded = try FocusStore(url: store.url).load()
    #expect(reloaded == configuration)
    #expect(reloaded.mode(named: "Reading")?.isBuiltIn == false)
    // No temporary file is left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: store.url.deletingLastPathComponent().path)
    #expect(names == ["focus.json"])
  }

  @Test(arguments: [
    ("{\"modes\": [", "is not valid JSON"),
    ("not json", "is not valid JSON"),
    ("{\"activeFocus\": \"Work\", \"savedParameters\": {}}", "lacks modes"),
    ("{\"modes\": 3, \"savedParameters\": {}}", "has a wrong value at modes"),
  ])
  func aBadFileIsAnErrorNamingTheFile(text: String, message: String) throws {
    let store = try Self.temporaryStore()
    try Data(text.utf8).write(to: store.url)
    #expect {
      _ = try store.load()
    } throws: { error in
      guard let error = error as? FocusStoreError else { return false }
      return error.path == store.url.path && error.message.contains(message)
    }
  }

  @Test func malformedJSONReportsItsOffset() throws {
    let store = try Self.temporaryStore()
    try Data("{\"modes\": [}".utf8).write(to: store.url)
    #expect {
      _ = try store.load()
    } throws: { error in
      (error as? FocusStoreError)?.message.contains("at offset 11") == true
    }
  }

  @Test func anUnwritableDirectoryIsAnError() throws {
    let store = FocusStore(url: URL(fileURLWithPath: "/nonexistent-directory-for-sift/focus.json"))
    #expect(throws: FocusStoreError.self) { try store.save(FocusConfiguration()) }
  }
}
