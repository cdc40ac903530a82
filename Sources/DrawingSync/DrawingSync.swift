/// DrawingSync: the coordinator between the canvas and the replica.
public enum DrawingSync {}
