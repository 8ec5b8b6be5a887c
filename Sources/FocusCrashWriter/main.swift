// Writes a burst of Focus changes to a database and acknowledges each one on standard
// output once the call that made it returned: the crash test kills this process with
// SIGKILL mid-burst and checks that every acknowledged change survived.
//
// Usage: FocusCrashWriter DATABASE COUNT
import Foundation
import SiftFocus

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: FocusCrashWriter DATABASE COUNT\n".utf8))
  exit(2)
}
do {
  let database = try FocusDatabase(path: arguments[1])
  var systems: [FocusSystem] = []
  for u in 0..<10 { systems.append(try FocusSystem(database: database, user: "user\(u)")) }
  for k in 0..<count {
    let system = systems[k % 10]
    if k % 2 == 0 {
      try await system.setBadgeCount(k, for: "app\(k)")
    } else {
      try await system.addFocus(FocusMode(name: "Focus \(k)"))
    }
    FileHandle.standardOutput.write(Data("ack \(k)\n".utf8))
  }
} catch {
  FileHandle.standardError.write(Data("FocusCrashWriter: \(error)\n".utf8))
  exit(1)
}
