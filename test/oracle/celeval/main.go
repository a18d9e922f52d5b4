// celeval: Kubernetes' own CEL environment for CRD validation rules (k8s.io/apiserver v0.33.13)
// evaluating expressions, for the vectors of test/vectors/cel-kubernetes-libraries.jsonl.
//
// For each JSON line on stdin, {"expr": "...", "self": <JSON>, "schema": <OpenAPI schema of self>}
// (self and schema optional), it does what the API server does with a CRD rule: it compiles the
// expression in the NewExpressions environment (what a CRD create or a changed rule is checked
// with, at DefaultCompatibilityVersion), then compiles and runs it in the StoredExpressions
// environment (what custom resources are validated with), `self` typed and converted by the schema
// as the CRD validator does, with the per-call cost limit and Kubernetes' cost estimator. Unlike a
// rule, the expression may give any type. It prints one JSON line per input, in order:
//
//	{"compileError": "..."}   the NewExpressions environment refuses it
//	{"error": "..."}          it compiles, and evaluating it fails
//	{"value": <encoded>}      its result (see encode)
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	celvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

type input struct {
	Expr   string          `json:"expr"`
	Self   json.RawMessage `json:"self"`
	Schema json.RawMessage `json:"schema"`
}

func main() {
	compat := environment.DefaultCompatibilityVersion()
	fmt.Fprintf(os.Stderr, "celeval: NewExpressions at compatibility version %s\n", compat)
	base := environment.MustBaseEnvSet(compat, true)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var line input
		var answer map[string]any
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			answer = map[string]any{"inputError": err.Error()}
		} else {
			answer = evaluate(base, line)
		}
		encoded, err := json.Marshal(answer)
		if err != nil {
			encoded, _ = json.Marshal(map[string]any{"inputError": "encoding the answer: " + err.Error()})
		}
		out.Write(encoded)
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func evaluate(base *environment.EnvSet, line input) map[string]any {
	envSet := base
	activation := map[string]any{}
	if len(line.Schema) > 0 {
		structural, err := structuralOf(line.Schema)
		if err != nil {
			return map[string]any{"inputError": err.Error()}
		}
		declType := model.SchemaDeclType(structural, false).MaybeAssignTypeName("selfType")
		envSet, err = base.Extend(environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions:        []cel.EnvOption{cel.Variable("self", declType.CelType())},
			DeclTypes:         []*apiservercel.DeclType{declType},
		})
		if err != nil {
			return map[string]any{"inputError": err.Error()}
		}
		// Decoded as the API server decodes a custom resource: integers as int64, other numbers as float64.
		var self any
		if len(line.Self) > 0 {
			if err := utiljson.Unmarshal(line.Self, &self); err != nil {
				return map[string]any{"inputError": err.Error()}
			}
		}
		activation["self"] = celvalidation.UnstructuredToVal(self, structural)
	}
	if _, issues := envSet.NewExpressionsEnv().Compile(line.Expr); issues != nil && issues.Err() != nil {
		return map[string]any{"compileError": issues.String()}
	}
	env := envSet.StoredExpressionsEnv()
	ast, issues := env.Compile(line.Expr)
	if issues != nil && issues.Err() != nil {
		return map[string]any{"compileError": "StoredExpressions: " + issues.String()}
	}
	program, err := env.Program(ast, cel.CostLimit(celconfig.PerCallLimit), cel.CostTracking(&library.CostEstimator{}))
	if err != nil {
		return map[string]any{"compileError": "program: " + err.Error()}
	}
	value, _, err := program.Eval(activation)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"value": encode(value)}
}

// structuralOf reads a v1 OpenAPI schema as the CRD validator has it: structural.
func structuralOf(raw json.RawMessage) (*structuralschema.Structural, error) {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &v1); err != nil {
		return nil, err
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return nil, err
	}
	return structuralschema.NewStructural(&internal)
}

// encode writes a CEL value as JSON that keeps its type: bool, string, null and lists as they are;
// {"int": "1"}, {"uint": "1"}, {"double": 1.5 or "NaN", "+Inf", "-Inf"}, {"bytes": base64},
// {"map": [[key, value], ...]} (sorted by the key's JSON), {"optional": [value]} or {"optional": []},
// {"duration": nanoseconds}, {"timestamp": "seconds.nanos"}, {"type": name}, and Kubernetes' own
// types by their type name: {"net.IP": "1.2.3.4"}, {"kubernetes.Quantity": "1Gi"} …
func encode(value ref.Val) any {
	switch v := value.(type) {
	case types.Bool:
		return bool(v)
	case types.String:
		return string(v)
	case types.Null:
		return nil
	case types.Int:
		return map[string]any{"int": strconv.FormatInt(int64(v), 10)}
	case types.Uint:
		return map[string]any{"uint": strconv.FormatUint(uint64(v), 10)}
	case types.Double:
		f := float64(v)
		switch {
		case math.IsNaN(f):
			return map[string]any{"double": "NaN"}
		case math.IsInf(f, 1):
			return map[string]any{"double": "+Inf"}
		case math.IsInf(f, -1):
			return map[string]any{"double": "-Inf"}
		}
		return map[string]any{"double": f}
	case types.Bytes:
		return map[string]any{"bytes": base64.StdEncoding.EncodeToString(v)}
	case types.Duration:
		return map[string]any{"duration": strconv.FormatInt(v.Duration.Nanoseconds(), 10)}
	case types.Timestamp:
		return map[string]any{"timestamp": fmt.Sprintf("%d.%09d", v.Time.Unix(), v.Time.Nanosecond())}
	case *types.Optional:
		if v.HasValue() {
			return map[string]any{"optional": []any{encode(v.GetValue())}}
		}
		return map[string]any{"optional": []any{}}
	case apiservercel.IP:
		return map[string]any{"net.IP": v.Addr.String()}
	case apiservercel.CIDR:
		return map[string]any{"net.CIDR": v.Prefix.String()}
	case apiservercel.URL:
		return map[string]any{"kubernetes.URL": v.URL.String()}
	case apiservercel.Quantity:
		return map[string]any{"kubernetes.Quantity": v.Quantity.String()}
	case *apiservercel.Quantity:
		return map[string]any{"kubernetes.Quantity": v.Quantity.String()}
	case apiservercel.Semver:
		return map[string]any{"kubernetes.Semver": v.Version.String()}
	case apiservercel.Format:
		return map[string]any{"kubernetes.NamedFormat": v.Name}
	case ref.Type:
		return map[string]any{"type": v.TypeName()}
	case traits.Mapper:
		entries := [][2]any{}
		for it := v.Iterator(); it.HasNext() == types.True; {
			key := it.Next()
			entries = append(entries, [2]any{encode(key), encode(v.Get(key))})
		}
		sort.Slice(entries, func(i, j int) bool {
			a, _ := json.Marshal(entries[i][0])
			b, _ := json.Marshal(entries[j][0])
			return string(a) < string(b)
		})
		return map[string]any{"map": entries}
	case traits.Lister:
		items := []any{}
		for it := v.Iterator(); it.HasNext() == types.True; {
			items = append(items, encode(it.Next()))
		}
		return items
	}
	return map[string]any{"unknown": fmt.Sprintf("%T %v", value, value.Value())}
}
