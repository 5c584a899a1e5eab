// The dashboard JSON, written below by tests/k8s/test_grafana_schema.py as object literals, must be
// a `Dashboard` of @grafana/schema (Grafana's own types, generated from its CUE schema, of the
// Grafana version the manifests name), and each panel a `Panel` with its plugin's `Options` and
// `FieldConfig` (the composable panelcfg schemas). Excess property checks of object literals flag
// unknown fields; `Json<T>` reads a string enum as the strings JSON carries
// (ThresholdsMode.Absolute is "absolute" on the wire).
import type { Dashboard, FieldConfigSource, Panel } from '@grafana/schema';
import type * as TimeSeries from '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';
import type * as Stat from '@grafana/schema/dist/esm/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';

type Json<T> = T extends string ? `${T}` : T extends number | boolean | null | undefined ? T
  : T extends ReadonlyArray<infer U> ? Array<Json<U>> : T extends object ? { [K in keyof T]: Json<T[K]> } : T;

// (`Panel<TOptions>` leaves `options` a Record: the plugin's types replace it here.)
type PanelOf<O, F = Record<string, unknown>> = Omit<Panel, 'options' | 'fieldConfig'> &
  { options?: O; fieldConfig?: FieldConfigSource<F> };
export type TimeSeriesPanel = Json<PanelOf<TimeSeries.Options, TimeSeries.FieldConfig>>;
export type StatPanel = Json<PanelOf<Stat.Options>>;

