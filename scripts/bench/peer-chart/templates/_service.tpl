{{- /* One Service from a values set (the top level, or an item of .Values.services). */ -}}
{{- define "peer-service.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ .name | quote }}
  namespace: {{ .namespace | quote }}
spec:
  selector:
    {{- toYaml .selector | nindent 4 }}
  ports:
    {{- toYaml .ports | nindent 4 }}
{{- end -}}
