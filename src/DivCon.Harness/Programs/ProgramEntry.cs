namespace DivCon.Harness.Programs;

/// <summary>A program the CLI can name: how to make an instance of it for a size and a seed.</summary>
/// <param name="Name">The catalogue name, lowercase.</param>
/// <param name="Description">One line for help text and reports.</param>
/// <param name="Create">Makes an instance (its input made lazily: <see cref="IWorkloadProgram.Initialize"/>).</param>
public sealed record ProgramEntry(string Name, string Description, Func<WorkloadSize, int, IWorkloadProgram> Create);
