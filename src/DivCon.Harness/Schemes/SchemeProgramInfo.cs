namespace DivCon.Harness.Schemes;

/// <summary>One program as a scheme sees it.</summary>
/// <param name="Name">The program's name in the workload.</param>
/// <param name="Scalability">
/// Its speedup alone on all the processors (T_seq / C^SP), measured before the phase when any selected scheme needs it
/// (<see cref="SchemeDescriptor.RequiresScalability"/>); null otherwise.
/// </param>
public sealed record SchemeProgramInfo(string Name, double? Scalability);
