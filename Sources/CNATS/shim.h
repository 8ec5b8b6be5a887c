#ifndef CNATS_SHIM_H
#define CNATS_SHIM_H
/* The NATS C client (Debian's libnats-dev 3.4): core NATS, JetStream and its key-value
   store. Included through its nats/ directory, where the package puts the headers. */
#include <nats/nats.h>
#endif
