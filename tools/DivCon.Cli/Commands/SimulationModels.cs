using System.Globalization;
using DivCon.Cli.Programs;
using DivCon.Harness.Programs;
using DivCon.Simulation;

namespace DivCon.Cli.Commands;

/// <summary>Where the <c>simulate</c> commands get their program and machine models: the shipped ones or a folder (<c>--models</c>).</summary>
internal static class SimulationModels
{
    /// <summary>The seed the sample programs are made with when only their size is needed.</summary>
    public const int SamplesSeed = DivCon.Samples.SampleCatalog.DefaultSeed;

    /// <summary>
    /// The model of <paramref name="name"/> from <paramref name="folder"/> (null: the shipped one), scaled to the sample's
    /// <paramref name="size"/> (null: as calibrated); null with a problem line when it cannot be had.
    /// </summary>
    public static ProgramModel? Load(string name, string? folder, WorkloadSize? size, List<string> problems)
    {
        if (CommandInput.Read(() => folder is null ? ModelStore.LoadDefault(name) : ModelStore.Load(folder, name), problems) is not { } model)
        {
            return null;
        }

        if (size is not { } s)
        {
            return model;
        }

        if (ProblemSize(name, s) is not { } problemSize)
        {
            problems.Add($"Program '{name}' is not a sample program, so it has no {CommandInput.Name(s)} size; use --size model.");
            return null;
        }

        return problemSize == model.ProblemSize ? model : model.ScaledTo(problemSize);
    }

    /// <summary>The models of <paramref name="names"/> (each once) by name, each loaded as <see cref="Load"/> does at the size <paramref name="size"/> gives it.</summary>
    public static Dictionary<string, ProgramModel> LoadAll(IEnumerable<string> names, string? folder, Func<string, WorkloadSize?> size, List<string> problems)
    {
        var loaded = new Dictionary<string, ProgramModel>(StringComparer.Ordinal);
        foreach (string name in names.Distinct(StringComparer.Ordinal))
        {
            if (Load(name, folder, size(name), problems) is { } model)
            {
                loaded[name] = model;
            }
        }

        return loaded;
    }

    /// <summary><paramref name="beta"/> as a memory contention (null: none given), with a problem line when it is negative or not finite.</summary>
    public static double? CheckContention(double? beta, List<string> problems)
    {
        problems.AddIf(beta is { } b && (!(b >= 0) || !double.IsFinite(b)), $"--memory-contention must be 0 or more; got {beta?.ToString(CultureInfo.InvariantCulture)}.");
        return beta;
    }

    /// <summary>
    /// The machine model of <paramref name="folder"/> (null: the shipped one); a folder without <c>machine.json</c>
    /// (hand-made models) gets the shipped one, and <paramref name="note"/> says so. Null with a problem line when the
    /// file cannot be read.
    /// </summary>
    public static MachineModel? LoadMachine(string? folder, List<string> problems, out string? note)
    {
        bool shipped = folder is null || !File.Exists(Path.Combine(folder, MachineModel.FileName));
        MachineModel? machine = CommandInput.Read(() => shipped ? ModelStore.LoadDefaultMachine() : ModelStore.ReadMachine(Path.Combine(folder!, MachineModel.FileName)), problems);
        note = folder is not null && shipped && machine is not null ? string.Create(CultureInfo.InvariantCulture,
            $"no {MachineModel.FileName} in {folder}: using the shipped one (memory contention β = {machine.MemoryContention}).") : null;
        return machine;
    }

    /// <summary>The problem size of sample <paramref name="name"/> at <paramref name="size"/>, or null when it is not a sample program.</summary>
    public static long? ProblemSize(string name, WorkloadSize size) =>
        SamplePrograms.Skeletons.Find(name)?.Create(size, SamplesSeed) is ISkeletonProgram sample ? sample.ProblemSize : null;
}
