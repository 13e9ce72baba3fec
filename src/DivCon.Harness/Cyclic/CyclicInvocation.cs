namespace DivCon.Harness.Cyclic;

/// <summary>
/// One independent invocation (one process) of a cyclic or symmetric test, as it was measured: every run time, with the
/// warm-up runs apart, the order the schemes ran in, and what each scheme's schedulers reported. The raw data every
/// figure of the result is recomputed from (<c>divcon analyze</c>).
/// </summary>
/// <param name="Invocation">1-based.</param>
/// <param name="ProcessId">The process that ran it.</param>
/// <param name="StartedUtc">When it started.</param>
/// <param name="ElapsedSeconds">How long it took.</param>
/// <param name="SchemeOrder">The order the schemes ran in (shuffled per invocation when the plan says so).</param>
/// <param name="Programs">Per program, in workload order: what was measured of it alone.</param>
/// <param name="Schemes">Per scheme, in report order: the multiprogram runs and the schedulers' report.</param>
/// <param name="Throttling">
/// The cgroup throttling read around every timed run alone and every phase of this invocation (its <c>repetition</c>
/// fields are the invocation's number); null where there is no cgroup to read.
/// </param>
public sealed record CyclicInvocation(
    int Invocation,
    int ProcessId,
    DateTimeOffset StartedUtc,
    double ElapsedSeconds,
    IReadOnlyList<string> SchemeOrder,
    IReadOnlyList<InvocationProgram> Programs,
    IReadOnlyList<InvocationScheme> Schemes,
    CyclicThrottling? Throttling = null);
