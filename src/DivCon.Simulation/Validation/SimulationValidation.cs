namespace DivCon.Simulation.Validation;

/// <summary>
/// The simulated side of <c>divcon simulate validate</c> and the comparison (pure: the measured records in, the
/// <see cref="ValidationFile"/> out; deterministic). The measured side is the harness's factored measurement and
/// cyclic test, run by the command line.
/// </summary>
public static class SimulationValidation
{
    /// <summary>Tolerance on isolated T_1 and T_2 (issue 19).</summary>
    public const double IsolatedTarget = 0.10;

    /// <summary>Tolerance on NTT and ANTT at 2 cores (issue 19).</summary>
    public const double CyclicTarget = 0.15;

    /// <summary>
    /// Simulates every measured configuration with <paramref name="models"/> and compares: per program and P its
    /// T_P, per workload and scheme every program's NTT, the ANTT and the STP.
    /// </summary>
    /// <param name="measured">What was measured (cores, runs, duration, C^SP runs, seed, schemes, the simulator's costs) and the times.</param>
    /// <param name="machine">The machine model (its β is the settings' memory contention).</param>
    /// <param name="models">A model per program measured, at the measured size.</param>
    /// <exception cref="ArgumentException">A program has no model, or a scheme is not simulated.</exception>
    public static ValidationFile Compare(ValidationMeasurements measured, MachineModel machine, IReadOnlyDictionary<string, ProgramModel> models)
    {
        ArgumentNullException.ThrowIfNull(measured);
        ArgumentNullException.ThrowIfNull(machine);
        ArgumentNullException.ThrowIfNull(models);
        ValidationSettings settings = measured.Settings;
        var sources = Sources(models, measured.Isolated.Select(r => r.Program).Concat(measured.Cyclic.SelectMany(w => w.Programs)));
        ulong seed = (ulong)settings.Seed;
        var simulatedIsolated = new List<FactoredProgramResult>();
        var isolated = new List<IsolatedComparison>();
        foreach (FactoredProgramResult program in measured.Isolated)
        {
            int[] cores = program.Points.Select(p => (int)p.P).ToArray();
            FactoredProgramResult simulated = IsolatedSimulation.Factored(models[program.Program], cores, settings.Cores, settings.Parameters, seed, settings.Runs);
            simulatedIsolated.Add(simulated);
            foreach (FactoredPoint m in program.Points)
            {
                FactoredPoint s = simulated.Points.First(x => x.P == m.P);
                double? target = m.P <= 2 ? IsolatedTarget : null;
                double error = (s.Tp - m.Tp) / m.Tp;
                isolated.Add(new IsolatedComparison(program.Program, (int)m.P, m.Tp, s.Tp, error, target, target is { } t ? Math.Abs(error) <= t : null));
            }
        }

        var simulatedCyclic = new List<SimulationResult>();
        var cyclic = new List<CyclicComparison>();
        foreach (MeasuredWorkload workload in measured.Cyclic)
        {
            var request = new SimulationRequest
            {
                Cores = settings.Cores,
                Programs = workload.Programs.Select(p => models[p]).ToArray(),
                Schemes = workload.Schemes.Select(s => s.Scheme).ToArray(),
                Seed = seed,
                DurationNs = (long)Math.Round(settings.DurationSeconds * 1e9),
                SpRuns = settings.SpRuns,
                Parameters = settings.Parameters,
            };
            SimulationResult simulated = CyclicSimulator.Run(request, workload.Workload);
            simulatedCyclic.Add(simulated);
            double? target = settings.Cores == 2 ? CyclicTarget : null;
            foreach (SchemeResult m in workload.Schemes)
            {
                SchemeResult s = simulated.Schemes.First(x => x.Scheme == m.Scheme);
                cyclic.AddRange(m.Programs.Select(mp =>
                    Row(workload.Workload, m.Scheme, "ntt", mp.Program, mp.Ntt?.Mean, s.Programs.First(x => x.Program == mp.Program).Ntt?.Mean, target)));
                cyclic.Add(Row(workload.Workload, m.Scheme, "antt", null, m.Antt?.Mean, s.Antt?.Mean, target));
                cyclic.Add(Row(workload.Workload, m.Scheme, "stp", null, m.Stp?.Mean, s.Stp?.Mean, null));
            }
        }

        return new ValidationFile(settings, machine, sources, measured.Isolated, simulatedIsolated, measured.Cyclic, simulatedCyclic, isolated, cyclic)
        {
            StartedUtc = measured.StartedUtc,
            ElapsedSeconds = measured.ElapsedSeconds,
            Machine = measured.Machine,
        };
    }

    /// <summary>Each of <paramref name="programs"/>' model source, by name.</summary>
    /// <exception cref="ArgumentException">A program has no model.</exception>
    internal static IReadOnlyDictionary<string, string> Sources(IReadOnlyDictionary<string, ProgramModel> models, IEnumerable<string> programs)
    {
        string[] used = programs.Distinct(StringComparer.Ordinal).ToArray();
        string[] missing = used.Where(p => !models.ContainsKey(p)).ToArray();
        return missing.Length > 0
            ? throw new ArgumentException($"No model for {string.Join(", ", missing)}.", nameof(models))
            : used.Order(StringComparer.Ordinal).ToDictionary(p => p, p => models[p].Source);
    }

    private static CyclicComparison Row(string workload, string scheme, string metric, string? program, double? measured, double? simulated, double? target)
    {
        double? error = measured is { } m && simulated is { } s && m != 0 ? (s - m) / m : null;
        return new CyclicComparison(workload, scheme, metric, program, measured, simulated, error, error is null ? null : target,
            error is { } e && target is { } t ? Math.Abs(e) <= t : null);
    }
}
