namespace DivCon.Harness.Cyclic;

/// <summary>
/// One program as the cyclic protocol sees it: a name and a way to start one run. <see cref="StartRun"/> must return
/// promptly (the work runs on the program's TaskScheduler, not on the caller); the returned task completes when the
/// run ends, faults if it failed, and should stop early when its token is canceled.
/// </summary>
/// <param name="Name">For progress lines and error messages.</param>
/// <param name="StartRun">Starts one run.</param>
public sealed record PhaseProgram(string Name, Func<CancellationToken, Task> StartRun);
