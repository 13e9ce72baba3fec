using DivCon.Harness.Programs;

namespace DivCon.Harness.Open;

/// <summary>A class of jobs in an open workload's mix.</summary>
/// <param name="Name">Its name (in the mix, traces and reports).</param>
/// <param name="Role"><see cref="OpenMix.Latency"/> (short, latency-sensitive) or <see cref="OpenMix.Throughput"/> (long).</param>
/// <param name="Description">What a job of the class runs.</param>
/// <param name="Weight">Its share of the arrivals (relative to the other classes'); positive.</param>
/// <param name="Create">Makes an instance; the instance's input is made by <see cref="IWorkloadProgram.Initialize"/> before any timed run.</param>
/// <param name="Reentrant">True when one instance may run several jobs at once; otherwise each running job has its own instance.</param>
public sealed record OpenJobClass(string Name, string Role, string Description, double Weight, Func<IWorkloadProgram> Create, bool Reentrant);
