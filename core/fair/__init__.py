"""Fair play without a trusted server: joint randomness, commitments and a mental deck."""
