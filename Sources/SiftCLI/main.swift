// `sift`: the command line. Everything but the process entry lives in SiftCommandLine,
// where the tests and the fuzz targets reach it too.
import SiftCommandLine

#if canImport(Glibc)
  import Glibc
#endif

exit(SiftCommand.run())
