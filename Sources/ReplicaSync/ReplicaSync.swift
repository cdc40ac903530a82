/// ReplicaSync: the I/O-free sync protocol, its socket transports, local discovery and the relay.
public enum ReplicaSync {}
