// Command celcost answers, with Kubernetes 1.33's own code, what the API server says of the cost of
// a CRD version's x-kubernetes-validations rules: one JSON line in on stdin, one JSON line out.
//
//	{"schema": <openAPIV3Schema>}
//	  → {"rules": [{"path", "maxCost", "maxCardinality", "cost", "messageCost"?, "error"?}], "errors": [{"field", "detail"}]}
//	  each rule's estimate as cel.Compile makes it and validation.go multiplies it; errors are the
//	  cost errors of ValidateCustomResourceDefinition for a CRD with that schema.
//	{"schema": <openAPIV3Schema>, "object": <custom resource>}
//	  → {"remaining": N, "errors": [{"field", "detail"}]}
//	  the schema's rules run on the object by the API server's validator with RuntimeCELCostBudget.
//
// Costs are strings: an estimate may be as large as 2^64-1, beyond JSON's exact numbers.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemacel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type input struct {
	Schema json.RawMessage `json:"schema"`
	Object json.RawMessage `json:"object"`
}

type fieldError struct {
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

type ruleCost struct {
	Path           string `json:"path"`
	MaxCost        string `json:"maxCost"`
	MaxCardinality string `json:"maxCardinality"`
	Cost           string `json:"cost"`
	MessageCost    string `json:"messageCost,omitempty"`
	Error          string `json:"error,omitempty"`
}

type output struct {
	Rules     []ruleCost   `json:"rules,omitempty"`
	Errors    []fieldError `json:"errors"`
	Remaining *int64       `json:"remaining,omitempty"`
	Fatal     string       `json:"fatal,omitempty"`
}

// The CRD's schema as the internal type sits at spec.validation; paths are given from its root.
const schemaPath = "spec.validation.openAPIV3Schema"

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var line input
		var result output
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			result.Fatal = err.Error()
		} else if schema, err := internalSchema(line.Schema); err != nil {
			result.Fatal = err.Error()
		} else if len(line.Object) > 0 {
			result = run(schema, line.Object)
		} else {
			result = estimate(schema)
		}
		if result.Errors == nil {
			result.Errors = []fieldError{}
		}
		encoded, _ := json.Marshal(result)
		out.Write(append(encoded, '\n'))
	}
}

func internalSchema(raw json.RawMessage) (*apiextensions.JSONSchemaProps, error) {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &v1); err != nil {
		return nil, err
	}
	var schema apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &schema, nil); err != nil {
		return nil, err
	}
	return &schema, nil
}

func estimate(schema *apiextensions.JSONSchemaProps) output {
	var result output
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion(), true)
	// Rules written before: the stored environment, which has every library of 1.33 (semver too).
	walk(schema, "", validation.RootCELContext(schema), envSet, &result)
	crd := &apiextensions.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensions.CustomResourceDefinitionSpec{
			Group:                 "example.com",
			Names:                 apiextensions.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope:                 apiextensions.NamespaceScoped,
			Versions:              []apiextensions.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true}},
			Validation:            &apiextensions.CustomResourceValidation{OpenAPIV3Schema: schema},
			PreserveUnknownFields: ptr(false),
		},
		Status: apiextensions.CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
	}
	for _, err := range validation.ValidateCustomResourceDefinition(context.Background(), crd) {
		if strings.Contains(err.Detail, "cost") {
			result.Errors = append(result.Errors, fieldError{Field: strings.TrimPrefix(strings.TrimPrefix(err.Field, schemaPath), "."), Detail: err.ErrorBody()})
		}
	}
	return result
}

func ptr[T any](v T) *T { return &v }

// walk compiles the rules of every node as validation.go does, with the cardinality its parents give.
func walk(schema *apiextensions.JSONSchemaProps, path string, ctx *validation.CELSchemaContext, envSet *environment.EnvSet, result *output) {
	if len(schema.XValidations) > 0 {
		typeInfo, err := ctx.TypeInfo()
		if err != nil || typeInfo == nil {
			result.Fatal = fmt.Sprintf("%s: no type info: %v", path, err)
			return
		}
		compiled, err := schemacel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, envSet, schemacel.StoredExpressionsEnvLoader())
		if err != nil {
			result.Fatal = fmt.Sprintf("%s: %v", path, err)
			return
		}
		for i, cr := range compiled {
			rule := ruleCost{
				Path:           join(path, fmt.Sprintf("x-kubernetes-validations[%d]", i)),
				MaxCost:        strconv.FormatUint(cr.MaxCost, 10),
				MaxCardinality: strconv.FormatUint(cr.MaxCardinality, 10),
				Cost:           strconv.FormatUint(expressionCost(cr.MaxCost, cr.MaxCardinality, ctx), 10),
			}
			if cr.MessageExpression != nil {
				// validation.go does not multiply a messageExpression's estimate by the cardinality.
				rule.MessageCost = strconv.FormatUint(cr.MessageExpressionMaxCost, 10)
			}
			if cr.Error != nil {
				rule.Error = cr.Error.Detail
			}
			result.Rules = append(result.Rules, rule)
		}
	}
	for name := range schema.Properties {
		property := schema.Properties[name]
		walk(&property, join(path, "properties["+name+"]"), ctx.ChildPropertyContext(&property, name), envSet, result)
	}
	if schema.Items != nil && schema.Items.Schema != nil {
		walk(schema.Items.Schema, join(path, "items"), ctx.ChildItemsContext(schema.Items.Schema), envSet, result)
	}
	if schema.AdditionalProperties != nil && schema.AdditionalProperties.Schema != nil {
		walk(schema.AdditionalProperties.Schema, join(path, "additionalProperties"), ctx.ChildAdditionalPropertiesContext(schema.AdditionalProperties.Schema), envSet, result)
	}
}

// expressionCost is validation.go's getExpressionCost: the estimate times the cardinality the
// parents' maxItems/maxProperties give, else the one the node's smallest JSON size gives.
func expressionCost(cost, ownCardinality uint64, ctx *validation.CELSchemaContext) uint64 {
	cardinality := ownCardinality
	if ctx.MaxCardinality != nil {
		cardinality = *ctx.MaxCardinality
	}
	if cost == 0 {
		return 0
	}
	if math.MaxUint64/cost < cardinality {
		return math.MaxUint64
	}
	return cost * cardinality
}

func join(path, child string) string {
	if path == "" {
		return child
	}
	return path + "." + child
}

func run(schema *apiextensions.JSONSchemaProps, raw json.RawMessage) output {
	var result output
	structural, err := structuralschema.NewStructural(schema)
	if err != nil {
		result.Fatal = err.Error()
		return result
	}
	var object interface{}
	if err := utiljson.Unmarshal(raw, &object); err != nil {
		result.Fatal = err.Error()
		return result
	}
	validator := schemacel.NewValidator(structural, true, celconfig.PerCallLimit)
	errs, remaining := validator.Validate(context.Background(), nil, structural, object, nil, celconfig.RuntimeCELCostBudget)
	result.Remaining = &remaining
	result.Errors = fieldErrors(errs)
	return result
}

func fieldErrors(errs field.ErrorList) []fieldError {
	result := []fieldError{}
	for _, err := range errs {
		result = append(result, fieldError{Field: err.Field, Detail: err.ErrorBody()})
	}
	return result
}
