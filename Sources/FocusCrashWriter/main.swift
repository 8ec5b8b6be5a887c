// Writes a burst of Focus changes to a database and acknowledges each one on standard
// output once the call that made it returned: the crash test kills this process with
// SIGKILL mid-burst and checks that every acknowledged change survived, and the
// two-writer test runs it next to the test process on one file. A product, so a
// service's own crash test can depend on it.
//
// Usage: FocusCrashWriter DATABASE COUNT [USER_PREFIX]
//
// Change k goes to user PREFIX(k % 10) (PREFIX is "user" by default): an even k sets the
// badge of the app "mail" to k, an odd k adds the Focus "Focus k".
import Foundation
import SiftFocus

/// The filter type the writer registers for "mail" (badges need a registered app).
struct WriterFilter: FocusFilter {
  static let title = "Writer"
  var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: Self.title) }
  func perform() async throws {}
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let count = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: FocusCrashWriter DATABASE COUNT [USER_PREFIX]\n".utf8))
  exit(2)
}
let prefix = arguments.count == 4 ? arguments[3] : "user"
do {
  let database = try FocusDatabase(path: arguments[1])
  var systems: [FocusSystem] = []
  for u in 0..<10 {
    let system = try FocusSystem(database: database, user: "\(prefix)\(u)")
    try await system.register(WriterFilter.self, app: "mail")
    systems.append(system)
  }
  for k in 0..<count {
    let system = systems[k % 10]
    if k % 2 == 0 {
      try await system.setBadgeCount(k, for: "mail")
    } else {
      try await system.addFocus(FocusMode(name: "Focus \(k)"))
    }
    FileHandle.standardOutput.write(Data("ack \(k)\n".utf8))
  }
} catch {
  FileHandle.standardError.write(Data("FocusCrashWriter: \(error)\n".utf8))
  exit(1)
}
